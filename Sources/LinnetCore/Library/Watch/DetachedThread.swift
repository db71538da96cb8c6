import Glibc

/// A named POSIX thread running one closure, for blocking work that must stay off the loop
/// thread and Swift's small cooperative pool, without Foundation's `Thread`.
enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (at most 15 bytes are kept).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(DetachedThreadWork(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, detachedThreadMain, box) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<DetachedThreadWork>.fromOpaque(box).release()
        }
    }
}

private final class DetachedThreadWork: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// The thread's entry point: a plain function, since a closure converted to a C function pointer
/// here crashed swift-frontend 6.3.1 (SendNonSendable pass).
private func detachedThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let work = Unmanaged<DetachedThreadWork>.fromOpaque(argument).takeRetainedValue()
    nameThisThread(work.name)
    work.body()
    return nil
}

/// Names the calling thread for ps, top and perf. pthread_setname_np needs _GNU_SOURCE, which
/// the Glibc module is not built with; the kernel takes the same name from this file.
private func nameThisThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}
