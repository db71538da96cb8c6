internal import CGLib
import Glibc
import Synchronization

/// A thread of its own for long blocking work (the GLib main loop, tag scans, a folder walk):
/// the part of Foundation's `Thread` linnet uses, on pthreads, so the daemon links no
/// Foundation (whose ICU data costs several MiB of resident memory).
///
/// Set ``name`` and ``stackSize`` before ``start()``; the block runs once, on a detached thread.
public final class Thread: Sendable {
    private struct Settings {
        var name: String?
        var stackSize = 0
    }

    private let settings = Mutex(Settings())
    private let block: @Sendable () -> Void

    /// A thread that will run `block` once started.
    public init(block: @escaping @Sendable () -> Void) {
        self.block = block
    }

    /// The kernel's name for the thread (its first 15 bytes), seen in gdb, top and /proc.
    public var name: String? {
        get { settings.withLock { $0.name } }
        set { settings.withLock { $0.name = newValue } }
    }

    /// The stack size in bytes; 0 keeps the system default.
    public var stackSize: Int {
        get { settings.withLock { $0.stackSize } }
        set { settings.withLock { $0.stackSize = newValue } }
    }

    /// Starts the thread. A failure to create one is a crash, as in Foundation: nothing could
    /// run the work.
    public func start() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if stackSize > 0 { pthread_attr_setstacksize(&attributes, stackSize) }
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let started = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
            if let name = started.name { linnet_name_current_thread(name) }
            started.block()
            return nil
        }, context)
        precondition(result == 0, "cannot start a thread: error \(result)")
    }
}
