import DesktopClients
import ArgumentParser
import LinnetCore

/// The command-line options for how linnet behaves on the desktop: other players, notifications
/// and a lost audio output.
struct DesktopOptions: ParsableArguments {
    @Option(help: "How to treat other players while linnet plays: mix (alongside), duck (lower their volume) or pause-others.")
    var focus: FocusOption = .mix

    @Option(name: .customLong("duck-level"), help: ArgumentHelp(
        "With --focus duck: the fraction of their own volume other players keep, 0 to 1.", valueName: "fraction"))
    var duckLevel: Double = 0.3

    @Option(name: .customLong("resume-within"), help: ArgumentHelp(
        "With --focus pause-others: after giving way to another player, resume if it stops within this many seconds (0: never).",
        valueName: "seconds"))
    var resumeWithin: Double = 30

    @Flag(help: "Show a desktop notification for each track, with Previous and Next buttons.")
    var notify = false

    @Option(name: .customLong("on-route-lost"), help: "When the audio output linnet plays to goes away, or headphones give way to speakers: pause or keep (playing).")
    var onRouteLost: RouteLossOption = .pause

    @Option(name: .customLong("headphone-volume-cap"), help: ArgumentHelp(
        "While linnet plays to headphones (alarms and bells too), play no louder than this volume, 0 to 1 (on the scale of the MPRIS Volume; the Volume setting itself is kept).",
        valueName: "volume"))
    var headphoneVolumeCap: Double?

    func validate() throws {
        guard duckLevel.isFinite, (0...1).contains(duckLevel) else {
            throw ValidationError("--duck-level must be between 0 and 1")
        }
        guard resumeWithin.isFinite, resumeWithin >= 0, resumeWithin <= 86_400 else {
            throw ValidationError("--resume-within must be a number of seconds from 0 to 86400")
        }
        if let headphoneVolumeCap, !(headphoneVolumeCap.isFinite && (0...1).contains(headphoneVolumeCap)) {
            throw ValidationError("--headphone-volume-cap must be between 0 and 1")
        }
    }

    /// The settings for the shared desktop services.
    var settings: DesktopSettings {
        var settings = DesktopSettings()
        settings.focusPolicy = focus.policy
        settings.duckLevel = duckLevel
        settings.resumeWindow = .milliseconds(Int64((resumeWithin * 1000).rounded()))
        settings.notifyTrackChanges = notify
        return settings
    }

    /// What the player itself does.
    var behaviour: PlayerDesktopBehaviour {
        var behaviour = PlayerDesktopBehaviour()
        behaviour.notifyTrackChanges = notify
        behaviour.onRouteLost = onRouteLost.action
        return behaviour
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
