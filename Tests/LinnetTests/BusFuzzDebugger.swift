import Foundation
import TestSupport

/// `LINNET_FUZZ_GDB=1`: gdb attached to linnet for the whole run, so a crash leaves its
/// backtrace (every thread's) in the report instead of only "linnet died". Opt-in: attaching
/// slows signal delivery a little and needs ptrace rights.
///
/// gdb is started with posix_spawn and an empty signal mask: Foundation's `Process` passes on
/// the test runner's blocked mask, and a gdb that never sees SIGCHLD never notices its inferior
/// die, which then stays a zombie its parent (this test) waits for forever.
struct BusFuzzDebugger {
    static var requested: Bool { ProcessInfo.processInfo.environment["LINNET_FUZZ_GDB"].map { !$0.isEmpty && $0 != "0" } ?? false }

    private let pid: pid_t
    private let output: String

    /// Attaches to `target`, writing what gdb prints to `output`.
    init(target: Int32, output: String) throws {
        let arguments = [
            "/usr/bin/gdb", "-batch", "-nx", "-p", "\(target)",
            // Signals linnet expects stay invisible; a fault stops it and is reported.
            "-ex", "handle SIGPIPE SIGUSR1 SIGUSR2 SIGCHLD SIG32 SIG33 SIGTERM SIGINT SIGALRM nostop noprint pass",
            "-ex", "continue", "-ex", "bt 60", "-ex", "bt -40", "-ex", "thread apply all bt 12",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestSupportError("posix_spawn gdb failed: \(result)") }
        ChildProcessRegistry.record(pid: pid, description: "gdb")
        self.pid = pid
        self.output = output
    }

    /// Waits for gdb (call once linnet is gone) and returns what it saw if linnet stopped on a
    /// signal; nil for a run that ended normally.
    func crashReport() async -> String? {
        let pid = self.pid
        _ = try? await offPool {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        ChildProcessRegistry.forget(pid: pid)
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("received signal") }) else { return nil }
        // Symbol-reading chatter is not the crash.
        return lines[start...].filter { !$0.hasPrefix("During symbol") && !$0.contains("DWO") }.joined(separator: "\n")
    }
}
