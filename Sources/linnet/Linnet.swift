import ArgumentParser
import Glibc

/// Starts the command line. `linnet --help` shows the player's own options (what a user runs
/// most) together with the overview, instead of only the list of subcommands.
@main
enum LinnetMain {
    /// Synchronous on purpose: with an `async` main the runtime ends the main thread through
    /// `dispatch_main` (`pthread_exit`), whose forced unwinding looks up the frames' unwind
    /// tables, and the pages it reads (~0.8 MiB in the static build) stay resident for the whole
    /// run. Here the work runs as a detached task (a plain `Task` would inherit the main actor,
    /// whose queue nobody drains then) and the main thread waits for good, so nothing unwinds.
    /// Nothing in linnet runs on the main actor or the main queue.
    static func main() {
        AllocatorSettings.apply()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--help"] || arguments == ["-h"] {
            print(Linnet.helpMessage(for: Linnet.self))
            print("")
            print(Linnet.helpMessage(for: Play.self))
            return
        }
        // A launch that starts the player skips ArgumentParser (see QuickPlayArguments) and
        // takes its bus name on this thread: the name then waits neither for Swift's thread
        // pool to start nor for a hop onto it. The rest runs in the task.
        if let options = QuickPlayArguments.parse(arguments) {
            let launched: (Daemon, Daemon.Launch)
            do {
                launched = try Play.launchService(options)
            } catch {
                Linnet.exit(withError: error)
            }
            Task.detached {
                do {
                    try await Play.finishService(launched)
                } catch {
                    Linnet.exit(withError: error)
                }
                exit(0)
            }
        } else {
            Task.detached {
                await Linnet.main()
                exit(0)
            }
        }
        while true { pause() }
    }
}

/// `linnet`: the music service and its command line.
struct Linnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linnet",
        abstract: "A background music player for Linux, controlled through MPRIS (playerctl, media keys, desktop panels).",
        discussion: """
            With no arguments linnet resumes the saved session; with no saved session it plays the \
            music folder, and with no music a short demo playlist it makes itself. While linnet \
            runs, `linnet FILES` hands them to it (played now; --enqueue appends) and `linnet` \
            alone says what it plays; --new-instance runs a separate player.

            Control it with playerctl (`playerctl -p linnet play-pause`), your desktop's media keys \
            or any MPRIS client. Shell completions: `linnet --generate-completion-script bash|zsh|fish`.

            Exit status: 0 after Quit or SIGTERM/SIGINT or once the running linnet has what was \
            given, 64 for bad usage, 65 when `cancel` names no alarm, 66 when nothing given \
            can be played, 69 when there is no session bus (or it is not this user's), 70 when the \
            session bus goes away, 74 when the final save of the session or alarms failed.
            """,
        version: "0.1.0",
        subcommands: [
            Play.self, AlarmCommand.self, AlarmsCommand.self, CancelCommand.self, SleepCommand.self,
            PomodoroCommand.self, StatusCommand.self, LyricsCommand.self, ActionCommand.self,
        ],
        defaultSubcommand: Play.self)
}
