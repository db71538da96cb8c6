import Foundation
import TestSupport

/// A small tmpfs mounted over a test's directory: a real file system that fills up (ENOSPC)
/// and can be remounted read-only (EROFS), which `chmod` cannot fake for root.
///
/// Needs the right to mount (root in a privileged container, as on the development machine);
/// tests that use it are enabled only when ``isAvailable``.
final class TmpfsMount: @unchecked Sendable {
    let directory: URL
    private var mounted = true

    /// Whether this process may mount a tmpfs (tried once on a scratch directory).
    static let isAvailable: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]))?.status == 0 else {
            return false
        }
        _ = try? ExternalTool.run("umount", [probe.path])
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` over `directory` (created if missing).
    init(at directory: URL, kilobytes: Int) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", directory.path])
    }

    /// Remounts read-only (`true`) or read-write.
    func setReadOnly(_ readOnly: Bool) throws {
        try Self.run("mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", directory.path])
    }

    /// Fills the file system with `filler` until writes fail with ENOSPC; returns its URL.
    @discardableResult
    func fill() throws -> URL {
        let filler = directory.appendingPathComponent("filler")
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw TestSupportError("cannot create \(filler.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 512)
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == ENOSPC else { throw TestSupportError("filling: \(String(cString: strerror(errno)))") }
                return filler
            }
            if written == 0 { return filler }
        }
    }

    /// Unmounts (idempotent).
    func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? ExternalTool.run("umount", ["-l", directory.path])
    }

    deinit { unmount() }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ExternalTool.run(tool, arguments)
        guard result.status == 0 else { throw TestSupportError("\(tool) \(arguments.joined(separator: " ")): \(result.stderr)") }
    }
}
