/// An absolute local path as the kernel sees it: bytes, which need not be UTF-8.
///
/// A Swift `String` cannot hold a file name such as `bad\xFF\xFEname.ogg` (decoding repairs it
/// to U+FFFD, which names another file), so a path that came percent-encoded from a URI is
/// kept as bytes until it reaches the system call or goes back into a URI.
public struct LocalPath: Sendable, Hashable, CustomStringConvertible {
    /// The path, absolute and lexically normalised (no `.`, `..` or repeated slashes), no NUL.
    public let bytes: [UInt8]

    /// `bytes` made absolute-normalised, or nil when they do not start with `/` or hold a NUL.
    public init?(absolute bytes: [UInt8]) {
        guard bytes.first == UInt8(ascii: "/"), !bytes.contains(0) else { return nil }
        self.bytes = Self.normalized(bytes)
    }

    /// The path `text` (absolute; UTF-8 like every Swift string), or nil when it is not absolute
    /// or holds a NUL.
    public init?(_ text: String) {
        self.init(absolute: Array(text.utf8))
    }

    /// This folder's entry `name`, or nil when `name` is not one entry's name (empty, `.`, `..`,
    /// or holding a slash or a NUL). Already normalised, so nothing is scanned again: a folder
    /// walk makes one per file.
    public func appending(entry name: String) -> LocalPath? {
        let component = Array(name.utf8)
        guard !component.isEmpty, component != [UInt8(ascii: ".")], component != [UInt8(ascii: "."), UInt8(ascii: ".")],
              !component.contains(UInt8(ascii: "/")), !component.contains(0) else { return nil }
        var joined = bytes
        joined.reserveCapacity(bytes.count + 1 + component.count)
        if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
        joined += component
        return LocalPath(normalizedBytes: joined)
    }

    private init(normalizedBytes: [UInt8]) {
        bytes = normalizedBytes
    }

    /// The `file://` URI of this path, escaped like GLib's.
    public var uri: String { FileURI.uri(forPathBytes: bytes) }

    /// The path for people: bytes that are not UTF-8 are shown as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the path is `prefix` itself or lies below it (`prefix` absolute, normalised).
    public func isWithin(_ prefix: String) -> Bool {
        // Compared in place: the admission rule asks this three times per file of a walk.
        let stem = prefix.utf8
        guard bytes.starts(with: stem) else { return false }
        return bytes.count == stem.count || bytes[stem.count] == UInt8(ascii: "/") || prefix == "/"
    }

    /// The last component's extension in lower case, without the dot ("" when there is none).
    public var fileExtension: String {
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        guard let dot = bytes[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart else { return "" }
        return String(decoding: bytes[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `.` and `..` components and repeated slashes removed without touching the file system,
    /// as ``FileURI/normalized(_:)`` does for strings: symlinks stay as spelt.
    private static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        for part in bytes.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for part in parts {
            result.append(UInt8(ascii: "/"))
            result += part
        }
        return result.isEmpty ? [UInt8(ascii: "/")] : result
    }
}
