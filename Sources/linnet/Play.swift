import ClockRules
import ArgumentParser
import DBus
import FoundationEssentials
import LinnetCore
import PlayerCore
import Logging
import Playback

/// `linnet [play] [OPTIONS] [PATH|URI ...]`: runs the service in the foreground.
struct Play: AsyncParsableCommand {
    // Named here, not derived: ArgumentParser derives a missing name with String(describing:)
    // on the type, whose dynamic casts scan every protocol conformance in the process on the
    // way to the bus name.
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Run the player in the foreground and play files, folders, playlists or http(s) URIs.")

    @Option(help: ArgumentHelp(
        "Run a linnet of its own under org.mpris.MediaPlayer2.<name>, with its own saved session and alarms (the default, linnet, is the session's one linnet).",
        valueName: "name"))
    var name = PlayOptions.defaults.name

    @Flag(name: .customLong("new-instance"), help: "Run a separate linnet (org.mpris.MediaPlayer2.<name>.instance<pid>) even if one runs; its session is scratch, gone when it ends.")
    var newInstance = false

    @Flag(help: "When linnet already runs, add the files to the end of its queue instead of playing them now.")
    var enqueue = false

    @Option(name: .customLong("audio-sink"), help: ArgumentHelp(
        "A GStreamer sink or bin for the audio, e.g. 'fakesink sync=true' or a WAV capture bin.",
        valueName: "description"))
    var audioSink: String?

    @Option(help: "Repeat mode: none, track or playlist.")
    var loop: RepeatModeOption?

    @Flag(inversion: .prefixedNo, help: "Play in shuffled order (overrides the saved setting).")
    var shuffle: Bool?

    @Option(help: "Volume, linear: 0 is silent, 1 is full, above 1 amplifies.")
    var volume: Double?

    @Option(name: .customLong("effects-sink"), help: ArgumentHelp(
        "A GStreamer sink or bin for alarms and bells (linnet's second stream).", valueName: "description",
        visibility: .hidden))
    var effectsSink: String?

    @Option(name: .customLong("ring-limit"), help: ArgumentHelp(
        "An unanswered alarm stops after this long (e.g. 10m, 90s).", valueName: "duration"),
        transform: { text in try ClockDuration.parse(text) })
    var ringLimit = PlayOptions.defaults.ringLimit

    @Flag(name: .customLong("no-resume"), help: "Ignore the saved session.")
    var noResume = false

    @Flag(help: "Load without starting playback.")
    var paused = false

    @OptionGroup(title: "Desktop")
    var desktop: DesktopOptions

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = PlayOptions.defaults.logLevel

    @Option(name: .customLong("log-fold-window"), help: ArgumentHelp(
        "Seconds over which one call site's log lines beyond the first ten are folded into one summary.",
        valueName: "seconds", visibility: .hidden))
    var logFoldWindow = PlayOptions.defaults.logFoldWindow

    @Argument(help: ArgumentHelp("Audio files, folders, playlists (M3U, M3U8, PLS, XSPF) or http(s) URIs.",
                                 valueName: "path-or-uri"))
    var inputs: [String] = []

    func validate() throws {
        if let problem = options.problem() { throw ValidationError(problem) }
    }

    /// The parsed values.
    var options: PlayOptions {
        PlayOptions(
            name: name, newInstance: newInstance, enqueue: enqueue, audioSink: audioSink, loop: loop, shuffle: shuffle,
            volume: volume, effectsSink: effectsSink, ringLimit: ringLimit, noResume: noResume, paused: paused,
            desktop: desktop.choices, logLevel: logLevel, logFoldWindow: logFoldWindow, inputs: inputs)
    }

    func run() async throws {
        try await Self.runService(options)
    }

    /// Runs the service in the foreground until it ends; a status other than 0 is thrown as
    /// ``ExitCode``.
    static func runService(_ options: PlayOptions) async throws {
        try await finishService(launchService(options))
    }

    /// Sets up signals and logging and takes the service up to its MPRIS name without
    /// suspending (``Daemon/launch()``); ``finishService(_:)`` serves it from there.
    static func launchService(_ options: PlayOptions) throws -> (Daemon, Daemon.Launch) {
        SignalRelay.unblockTerminationSignals()
        SignalRelay.ignoreBrokenPipes()
        let level = options.logLevel.level
        // Every line is scrubbed of URI credentials; a flood of calls cannot flood the journal.
        let limiter = LogRateLimiter(LogFolding(window: .seconds(options.logFoldWindow)))
        LoggingSystem.bootstrap { label in
            var handler = RateLimitedLogHandler(CredentialScrubbingLogHandler(StreamLogHandler.standardError(label: label)), limiter: limiter)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "linnet")
        let daemon = Daemon(options: options, logger: logger)
        return (daemon, try daemon.launch())
    }

    /// Serves a launched service until it ends; a status other than 0 is thrown as ``ExitCode``.
    static func finishService(_ launched: (Daemon, Daemon.Launch)) async throws {
        let status = try await launched.0.finish(launched.1)
        if status != 0 { throw ExitCode(status) }
    }
}

/// `--loop` values.
enum RepeatModeOption: String, ExpressibleByArgument, CaseIterable {
    case none, track, playlist

    var mode: RepeatMode {
        switch self {
        case .none: .none
        case .track: .track
        case .playlist: .playlist
        }
    }
}

/// `--log-level` values.
enum LogLevelOption: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}
