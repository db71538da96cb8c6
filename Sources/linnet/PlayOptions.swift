import DBus
import DesktopClients
import Logging

/// What `linnet [play]` was asked to do, as plain values. ``Play`` (ArgumentParser) and
/// ``QuickPlayArguments`` both make one, and the service runs from it alone: reading an
/// ArgumentParser property wrapper outside a parse is a crash, and the quick path never parses.
/// The defaults here are the command line's defaults (``Play`` declares them from these).
struct PlayOptions: Equatable, Sendable {
    var name = InstanceRole.defaultName
    var newInstance = false
    var enqueue = false
    var audioSink: String?
    var loop: RepeatModeOption?
    var shuffle: Bool?
    var volume: Double?
    var effectsSink: String?
    var ringLimit: Duration = .seconds(600)
    var noResume = false
    var paused = false
    var desktop = DesktopChoices()
    var logLevel: LogLevelOption = .info
    var logFoldWindow = 60
    var inputs: [String] = []

    static let defaults = PlayOptions()

    /// Why these options cannot run, worded for the user (``Play/validate()`` shows it), or nil.
    /// The desktop options are checked apart (``DesktopChoices/problem()``), as their group is.
    func problem() -> String? {
        guard BusName(rawValue: "org.mpris.MediaPlayer2." + name) != nil else {
            return "--name \"\(name)\" does not make a bus name (letters, digits, _ and -, in dot-separated parts not starting with a digit)"
        }
        if let volume, !(volume.isFinite && volume >= 0) {
            return "--volume must be a number of 0 or more"
        }
        guard logFoldWindow > 0 else { return "--log-fold-window must be at least 1 second" }
        return nil
    }
}

/// How linnet treats the rest of the desktop (the "Desktop" options), as plain values.
struct DesktopChoices: Equatable, Sendable {
    var focus: FocusOption = .mix
    var duckLevel = 0.3
    var resumeWithin: Double = 30
    var notify = false
    var onRouteLost: RouteLossOption = .pause
    var headphoneVolumeCap: Double?

    static let defaults = DesktopChoices()

    /// Why these cannot run, worded for the user, or nil.
    func problem() -> String? {
        guard duckLevel.isFinite, (0...1).contains(duckLevel) else {
            return "--duck-level must be between 0 and 1"
        }
        guard resumeWithin.isFinite, resumeWithin >= 0, resumeWithin <= 86_400 else {
            return "--resume-within must be a number of seconds from 0 to 86400"
        }
        if let headphoneVolumeCap, !(headphoneVolumeCap.isFinite && (0...1).contains(headphoneVolumeCap)) {
            return "--headphone-volume-cap must be between 0 and 1"
        }
        return nil
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
