import Foundation
import Subprocess
import Synchronization
public import SystemPackage

/// A long-lived child (a `linnet` under test) started through swift-subprocess.
///
/// Its exit is an event (a pidfd watched by Subprocess's monitor thread, which also reaps it),
/// awaited without polling, and once it exited nothing keeps it: Foundation's `Process` retained
/// itself through a run-loop source until someone called `waitUntilExit()`, so polled or
/// forgotten children stayed alive in memory with their environment and log handles. Children
/// start with an empty signal mask and default handlers (`POSIX_SPAWN_SETSIGMASK|SETSIGDEF`),
/// so SIGTERM reaches them even from a Swift Testing thread that blocks it.
///
/// Its API follows the `Process` members the tests read (`processIdentifier`, `isRunning`,
/// `terminationStatus`, `terminationReason`).
public final class SpawnedProcess: Sendable {
    /// How it ended, as Foundation's `Process` says it.
    public enum TerminationReason: Int, Sendable, Equatable {
        case exit = 1, uncaughtSignal = 2
    }

    /// The child's pid.
    public let processIdentifier: Int32
    private let ending: ExitSignal

    /// Starts `executable` with `arguments` and exactly `environment`; standard output and error
    /// go to `output` (closed in this process once the child has it when `closeOutput`), standard
    /// input is empty. Returns once the child runs.
    public init(_ executable: String, arguments: [String], environment: [String: String], output: FileDescriptor,
                closeOutput: Bool) async throws {
        let ending = ExitSignal()
        let (started, starting) = AsyncStream<Int32>.makeStream()
        let variables = Dictionary(environment.compactMap { key, value in
            Environment.Key(rawValue: key).map { ($0, value) }
        }, uniquingKeysWith: { $1 })
        Task {
            let status: TerminationStatus
            do {
                status = try await run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), environment: .custom(variables),
                    input: .none, output: .fileDescriptor(output, closeAfterSpawningProcess: closeOutput),
                    error: .combinedWithOutput
                ) { execution in
                    starting.yield(execution.processIdentifier.value)
                    starting.finish()
                }.terminationStatus
            } catch {
                starting.finish()
                ending.finish(.failedToStart("\(error)"))
                return
            }
            switch status {
            case .exited(let code): ending.finish(.ended(code, .exit))
            case .signaled(let signal): ending.finish(.ended(signal, .uncaughtSignal))
            }
        }
        var iterator = started.makeAsyncIterator()
        guard let pid = await iterator.next() else {
            if case .failedToStart(let reason)? = await ending.wait() {
                throw TestSupportError("cannot start \(executable): \(reason)")
            }
            throw TestSupportError("cannot start \(executable)")
        }
        processIdentifier = pid
        self.ending = ending
    }

    /// Whether it has not been seen to exit yet.
    public var isRunning: Bool { ending.outcome == nil }

    /// Its exit code, or the signal that killed it; -1 while it runs.
    public var terminationStatus: Int32 {
        if case .ended(let status, _)? = ending.outcome { return status }
        return -1
    }

    /// Whether it exited or was killed by a signal (`.exit` while it runs, as `Process` says).
    public var terminationReason: TerminationReason {
        if case .ended(_, let reason)? = ending.outcome { return reason }
        return .exit
    }

    /// Sends `signal`, unless it already ended (its pid may be someone else's by then).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        Foundation.kill(processIdentifier, signal)
    }

    /// Waits up to `timeout` for it to exit: its exit code (or signal), nil if it still runs.
    public func waitForExit(timeout: Duration) async -> Int32? {
        let outcome = await withTaskGroup(of: ExitSignal.Outcome?.self) { group in
            group.addTask { await self.ending.wait() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if case .ended(let status, _)? = outcome { return status }
        return nil
    }

    /// Kills it with SIGKILL and returns once it is dead. Blocks the calling thread for as long
    /// as the kernel takes (no run loop, no pool thread is needed): `waitid` with `WNOWAIT` sees
    /// the death and leaves the reaping to Subprocess's monitor.
    public func killAndWait() {
        guard isRunning else { return }
        Foundation.kill(processIdentifier, SIGKILL)
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
    }
}

/// The child's end, told once to every waiter.
private final class ExitSignal: Sendable {
    enum Outcome: Sendable {
        case ended(Int32, SpawnedProcess.TerminationReason)
        case failedToStart(String)
    }

    private struct State {
        var outcome: Outcome?
        var waiters: [UInt64: CheckedContinuation<Outcome?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }
    private let state = Mutex(State())

    var outcome: Outcome? { state.withLock { $0.outcome } }

    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome?, Never>] in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// The outcome once there is one; nil if the waiting task is cancelled first.
    func wait() async -> Outcome? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let resumeNow = state.withLock { state -> Outcome?? in
                    if let outcome = state.outcome { return .some(outcome) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
