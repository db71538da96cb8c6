import Foundation

/// A fresh directory under the system temporary directory, removed when the value goes away.
public final class ScratchDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(_ prefix: String = "linnet-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relative` inside the directory.
    public func path(_ relative: String) -> String { path + "/" + relative }

    /// Writes `text` (UTF-8) to `relative`, creating parent directories, and returns the path.
    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to `relative`, creating parent directories, and returns the path.
    @discardableResult
    public func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let target = path(relative)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Creates the directory `relative` (and parents) and returns its path.
    @discardableResult
    public func makeDirectory(_ relative: String) throws -> String {
        let target = path(relative)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        return target
    }
}
