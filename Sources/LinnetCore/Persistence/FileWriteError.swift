import Glibc

/// A file-system call that failed while writing a file, with `errno`'s explanation.
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path being written or created.
    public var path: String
    /// The step that failed: "create directory", "create temporary file", "write", "fsync",
    /// "rename", ….
    public var operation: String
    /// The `errno` value (`ENOSPC` for a full disk, `EACCES`/`EPERM`/`EROFS` when not writable).
    public var code: Int32

    /// An error for `operation` on `path` that failed with `code`.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// `operation path: strerror`.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }
}
