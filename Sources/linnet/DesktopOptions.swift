import DesktopClients
import ArgumentParser
import LinnetCore

/// The command-line options for how linnet behaves on the desktop: other players, notifications
/// and a lost audio output.
struct DesktopOptions: ParsableArguments {
    @Option(help: "How to treat other players while linnet plays: mix (alongside), duck (lower their volume) or pause-others.")
    var focus = DesktopChoices.defaults.focus

    @Option(name: .customLong("duck-level"), help: ArgumentHelp(
        "With --focus duck: the fraction of their own volume other players keep, 0 to 1.", valueName: "fraction"))
    var duckLevel = DesktopChoices.defaults.duckLevel

    @Option(name: .customLong("resume-within"), help: ArgumentHelp(
        "With --focus pause-others: after giving way to another player, resume if it stops within this many seconds (0: never).",
        valueName: "seconds"))
    var resumeWithin = DesktopChoices.defaults.resumeWithin

    @Flag(help: "Show a desktop notification for each track, with Previous and Next buttons.")
    var notify = false

    @Option(name: .customLong("on-route-lost"), help: "When the audio output linnet plays to goes away, or headphones give way to speakers: pause or keep (playing).")
    var onRouteLost = DesktopChoices.defaults.onRouteLost

    @Option(name: .customLong("headphone-volume-cap"), help: ArgumentHelp(
        "While linnet plays to headphones (alarms and bells too), play no louder than this volume, 0 to 1 (on the scale of the MPRIS Volume; the Volume setting itself is kept).",
        valueName: "volume"))
    var headphoneVolumeCap: Double?

    func validate() throws {
        if let problem = choices.problem() { throw ValidationError(problem) }
    }

    /// The parsed values.
    var choices: DesktopChoices {
        DesktopChoices(
            focus: focus, duckLevel: duckLevel, resumeWithin: resumeWithin, notify: notify, onRouteLost: onRouteLost,
            headphoneVolumeCap: headphoneVolumeCap)
    }
}

/// `--focus` values.
enum FocusOption: String, ExpressibleByArgument, CaseIterable {
    case mix, duck
    case pauseOthers = "pause-others"

    var policy: FocusPolicy {
        switch self {
        case .mix: .mix
        case .duck: .duck
        case .pauseOthers: .pauseOthers
        }
    }
}

/// `--on-route-lost` values.
enum RouteLossOption: String, ExpressibleByArgument, CaseIterable {
    case pause, keep

    var action: PlayerDesktopBehaviour.RouteLossAction {
        switch self {
        case .pause: .pause
        case .keep: .keep
        }
    }
}
