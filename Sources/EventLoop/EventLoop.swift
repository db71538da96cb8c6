internal import CGLib
import Dispatch
import Glibc
import Synchronization

/// One GLib main loop running on a dedicated thread.
///
/// Linnet routes every event source through one loop thread: libdbus's watches, timeouts and
/// dispatch, and GStreamer's bus. Work is handed to the loop from any thread with ``execute(_:)``,
/// ``perform(_:)`` or ``sync(_:)``; file descriptors and timers are attached with
/// ``watch(fileDescriptor:events:handler:)`` and ``timer(after:repeating:handler:)``. An idle loop
/// sleeps in `poll` with no periodic wake-ups.
public final class EventLoop: @unchecked Sendable {
    /// The process-wide loop shared by D-Bus connections and the playback engine.
    public static let shared = EventLoop(name: "linnet.loop")

    /// `GMainContext *`, owned by this loop for its whole life.
    let context: OpaquePointer
    /// `GMainLoop *` spinning `context` on the loop thread.
    private let mainLoop: OpaquePointer
    private let finished = DispatchSemaphore(value: 0)
    private let ended = EndedFlag()
    /// The loop thread's `pthread_self()` while it runs the loop, 0 before and after.
    private let runner: RunningThread

    /// Starts a new loop thread named `name`.
    public init(name: String) {
        context = g_main_context_new()
        mainLoop = g_main_loop_new(context, 0)
        // The GLib objects are thread-safe; only the loop thread runs them. The thread holds its
        // own references: the loop object may be deinitialised on its own thread (stop() then
        // returns at once), and the context must outlive the dispatch still running there.
        let handles = UncheckedSendable((g_main_context_ref(context)!, g_main_loop_ref(mainLoop)!))
        let runner = RunningThread()
        self.runner = runner
        // Foundation does not pass `Thread.name` to the kernel here; naming the thread itself
        // makes it recognisable in gdb, top and /proc.
        let thread = Thread { [finished, ended] in
            linnet_name_current_thread(name)
            let (context, mainLoop) = handles.value
            g_main_context_push_thread_default(context)
            // Cleared before the thread ends: a later thread may be given the same pthread_t.
            runner.identity.store(UInt(pthread_self()), ordering: .releasing)
            g_main_loop_run(mainLoop)
            runner.identity.store(0, ordering: .releasing)
            g_main_context_pop_thread_default(context)
            g_main_loop_unref(mainLoop)
            g_main_context_unref(context)
            ended.value.store(true, ordering: .releasing)
            finished.signal()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
        // Not waited for: work queued before the thread reaches g_main_loop_run runs once it
        // does, and until it records its identity no thread is the loop's.
    }

    deinit {
        g_main_loop_unref(mainLoop)
        g_main_context_unref(context)
    }

    /// The loop's `GMainContext *`, for C libraries that attach their own sources to a GLib
    /// context (libpulse's glib main loop adapter). Package-only: no C type leaves the package.
    package var glibContext: OpaquePointer { context }

    /// Whether the calling thread is this loop's thread (while it runs the loop).
    ///
    /// Asked several times per D-Bus message; a comparison with the identity the loop thread
    /// recorded, where `g_main_context_is_owner` takes the context's lock. Only the loop thread
    /// stores its own identity, so only it can find it equal.
    public var isCurrentThread: Bool { runner.identity.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Makes the loop thread re-check its sources now (libdbus asks for this after queueing
    /// output from another thread).
    public func wakeUp() {
        g_main_context_wakeup(context)
    }

    /// Ends the loop thread after the work already queued. The shared loop is stopped only by a
    /// process that is about to exit (the daemon, once everything is saved).
    public func stop() {
        // A second stop finds the thread gone: nothing would signal `finished` again.
        guard !isStopped else { return }
        guard !isCurrentThread else {
            g_main_loop_quit(mainLoop)
            return
        }
        // Queued, not called here: a quit that came before the thread reached g_main_loop_run
        // would be forgotten by it.
        let loop = UncheckedSendable(mainLoop)
        execute { g_main_loop_quit(loop.value) }
        finished.wait()
    }

    /// Queues `work` to run on the loop thread, after the work queued before it, even when called
    /// from the loop thread itself.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let source = g_idle_source_new()!
        g_source_set_priority(source, linnet_g_priority_default())
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        g_source_set_callback(source, { data in
            Unmanaged<WorkBox>.fromOpaque(data!).takeUnretainedValue().run()
            return linnet_g_source_remove()
        }, box, { data in Unmanaged<WorkBox>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        g_source_unref(source)
    }

    /// Whether the loop thread has ended (after ``stop()``): work queued now would never run.
    public var isStopped: Bool { ended.value.load(ordering: .acquiring) }

    /// Runs `work` on the loop thread: at once when called there, otherwise queued. Once the loop
    /// has stopped there is no loop thread left to race with, so it runs at once on the caller.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        if isCurrentThread || isStopped { work() } else { execute(work) }
    }

    /// Runs `work` on the loop thread and waits for its result. Called on the loop thread, or
    /// after the loop stopped, it runs inline (waiting would never end).
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrentThread || isStopped { return try work() }
        return try withoutActuallyEscaping(work) { escapable in
            let box = SyncBox<T>(escapable)
            let done = DispatchSemaphore(value: 0)
            let unchecked = UncheckedSendable((box, done))
            execute {
                let (box, done) = unchecked.value
                box.run()
                done.signal()
            }
            done.wait()
            return try box.result!.get()
        }
    }

    /// Runs `work` on the loop thread and resumes with its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            perform { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// Set by the loop thread as it ends; shared with that thread's closure.
private final class EndedFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// The identity of the thread running a loop; shared with that thread's closure.
private final class RunningThread: Sendable {
    let identity = Atomic<UInt>(0)
}

/// A closure that `execute` passes through GLib as user data.
///
/// GLib's own locking orders the hand-off, but it is futex-based and ThreadSanitizer cannot see
/// it; the release/acquire pair on `published` states the same order where it can (`make check`).
private final class WorkBox {
    private let work: @Sendable () -> Void
    private let published = Atomic<Bool>(false)
    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        published.store(true, ordering: .releasing)
    }

    func run() {
        _ = published.load(ordering: .acquiring)
        work()
    }
}

/// Carries a non-escaping closure and its result across to the loop thread during `sync`, which
/// waits for it; the wait is what makes the unchecked hand-off safe.
private final class SyncBox<T> {
    private var work: (() throws -> T)?
    private var stored: Result<T, any Error>?
    /// Orders `run` before `result` for ThreadSanitizer, which cannot see the semaphore's futex.
    private let finished = Atomic<Bool>(false)
    init(_ work: @escaping () throws -> T) { self.work = work }

    /// Runs the work and drops it before the waiter resumes: the closure must not outlive `sync`.
    func run() {
        guard let work else { return }
        stored = Result { try work() }
        self.work = nil
        finished.store(true, ordering: .releasing)
    }

    /// What `run` produced; read after the waiter resumed.
    var result: Result<T, any Error>? {
        _ = finished.load(ordering: .acquiring)
        return stored
    }
}

/// Moves a value across threads where the surrounding code guarantees exclusive access.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
