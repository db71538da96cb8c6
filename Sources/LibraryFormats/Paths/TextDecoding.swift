/// Turns the bytes of a text file (playlist, lyrics) into a string the way real-world files
/// need: a byte-order mark is honoured and dropped, UTF-16 is recognised by its mark, and bytes
/// that are not UTF-8 are read as Latin-1 (old M3U and LRC files from Windows players).
public enum TextDecoding {
    /// Why bytes were refused as text.
    public enum Failure: Error { case binary }

    /// The text in `bytes`; fails for data with NUL bytes outside UTF-16, which is no text file.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try decode8(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return decode16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return decode16(bytes.dropFirst(2), bigEndian: true) }
        return try decode8(bytes[...])
    }

    private static func decode8(_ bytes: ArraySlice<UInt8>) throws(Failure) -> String {
        guard !bytes.contains(0) else { throw .binary }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func decode16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
