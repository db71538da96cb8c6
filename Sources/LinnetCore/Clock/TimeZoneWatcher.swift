public import EventLoop
import FoundationEssentials
import Glibc

/// Tells when the system time zone changes: `timedatectl set-timezone` (or a package update)
/// replaces `/etc/localtime`, which inotify reports on the directory. The kernel's
/// clock-was-set event does not cover a zone change, and an alarm at 07:00 must follow it.
public final class TimeZoneWatcher: Sendable {
    private let fd: Int32
    private let source: EventSource

    /// Watches `directory` for the files named `names` being replaced or rewritten, calling
    /// `handler` on `loop` once per batch of changes. Returns nil when inotify is unavailable.
    public init?(directory: String = "/etc", names: Set<String> = ["localtime", "timezone"], loop: EventLoop = .shared,
                 handler: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        source = loop.watch(fileDescriptor: fd, events: .readable) { _ in
            if Self.drain(fd).contains(where: names.contains) { handler() }
            return .keep
        }
    }

    deinit {
        source.cancel()
        close(fd)
    }

    /// Reads every pending event and returns the file names they concern.
    private static func drain(_ fd: Int32) -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let start = offset + 16
                let end = min(count, start + length)
                let nameBytes = buffer[start..<end].prefix { $0 != 0 }
                names.append(String(decoding: nameBytes, as: UTF8.self))
                offset = start + length
            }
        }
    }
}
