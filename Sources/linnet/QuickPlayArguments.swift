import ClockRules

/// The service's command line read without ArgumentParser, for the launches that start a player:
/// `linnet`, `linnet FILES`, `linnet --no-resume --paused --audio-sink … FILES`. ArgumentParser
/// builds its model of every command by reflection before it reads anything, and its dynamic
/// casts scan the process's protocol conformances: about a fifth of a launch's CPU before the
/// bus name.
///
/// It reads a strict subset and answers nil for anything else: subcommands and their names as
/// inputs, help and version, short or unknown options, `--`, an option given twice, a missing
/// value or one starting with `-`, a value that does not convert, and options that fail
/// validation. ArgumentParser then reads the whole line again, with its own messages and exit
/// statuses. For what it accepts it makes the ``PlayOptions`` ArgumentParser makes
/// (`QuickPlayArgumentsTests` holds the two side by side).
enum QuickPlayArguments {
    /// The command names ArgumentParser would take a first input for (`Linnet`'s subcommands,
    /// and `help`); an input spelled like one is left to it wherever it stands.
    static let commandNames: [String] = [
        "play", "alarm", "alarms", "cancel", "sleep", "pomodoro", "status", "lyrics", "action", "help",
    ]

    /// The options for `arguments` (the command line without the program name), or nil when
    /// ArgumentParser must read it.
    static func parse(_ arguments: [String]) -> PlayOptions? {
        var options = PlayOptions()
        var remaining = arguments[...]
        if remaining.first == "play" { remaining = remaining.dropFirst() }
        var given: [Substring] = []
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-") else {
                guard !commandNames.contains(argument) else { return nil }
                options.inputs.append(argument)
                continue
            }
            guard argument.hasPrefix("--") else { return nil }
            var name = argument.dropFirst(2)
            var attached: Substring?
            if let equals = name.firstIndex(of: "=") {
                attached = name[name.index(after: equals)...]
                name = name[..<equals]
            }
            // --shuffle and --no-shuffle set one value; either twice is left to ArgumentParser.
            let key = name == "no-shuffle" ? "shuffle" : name
            guard !name.isEmpty, !given.contains(key) else { return nil }
            given.append(key)
            // A flag takes no value; an option takes the attached one or the next argument.
            func flag() -> Bool? { attached == nil ? true : nil }
            func value() -> String? {
                if let attached { return attached.isEmpty ? nil : String(attached) }
                guard let next = remaining.popFirst(), !next.hasPrefix("-") else { return nil }
                return next
            }
            switch name {
            case "name": guard let text = value() else { return nil }; options.name = text
            case "new-instance": guard flag() != nil else { return nil }; options.newInstance = true
            case "enqueue": guard flag() != nil else { return nil }; options.enqueue = true
            case "audio-sink": guard let text = value() else { return nil }; options.audioSink = text
            case "loop":
                guard let mode = value().flatMap(RepeatModeOption.init(rawValue:)) else { return nil }
                options.loop = mode
            case "shuffle": guard flag() != nil else { return nil }; options.shuffle = true
            case "no-shuffle": guard flag() != nil else { return nil }; options.shuffle = false
            case "volume": guard let number = value().flatMap(Double.init) else { return nil }; options.volume = number
            case "effects-sink": guard let text = value() else { return nil }; options.effectsSink = text
            case "ring-limit":
                guard let text = value(), let limit = try? ClockDuration.parse(text) else { return nil }
                options.ringLimit = limit
            case "no-resume": guard flag() != nil else { return nil }; options.noResume = true
            case "paused": guard flag() != nil else { return nil }; options.paused = true
            case "log-level":
                guard let level = value().flatMap(LogLevelOption.init(rawValue:)) else { return nil }
                options.logLevel = level
            case "log-fold-window":
                guard let seconds = value().flatMap({ Int($0) }) else { return nil }
                options.logFoldWindow = seconds
            case "focus":
                guard let focus = value().flatMap(FocusOption.init(rawValue:)) else { return nil }
                options.desktop.focus = focus
            case "duck-level":
                guard let level = value().flatMap(Double.init) else { return nil }
                options.desktop.duckLevel = level
            case "resume-within":
                guard let seconds = value().flatMap(Double.init) else { return nil }
                options.desktop.resumeWithin = seconds
            case "notify": guard flag() != nil else { return nil }; options.desktop.notify = true
            case "on-route-lost":
                guard let action = value().flatMap(RouteLossOption.init(rawValue:)) else { return nil }
                options.desktop.onRouteLost = action
            case "headphone-volume-cap":
                guard let cap = value().flatMap(Double.init) else { return nil }
                options.desktop.headphoneVolumeCap = cap
            default:
                return nil
            }
        }
        guard options.problem() == nil, options.desktop.problem() == nil else { return nil }
        return options
    }
}
