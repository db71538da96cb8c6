public import ClockRules
import FoundationEssentials

extension AlarmBook: RecoverableState {
    /// Every alarm in the `alarms` array of a state file that decodes on its own: a file cut
    /// short keeps the alarms before the cut, and one malformed alarm costs only itself.
    public static func salvage(from bytes: [UInt8]) -> (value: AlarmBook, summary: String)? {
        guard let start = alarmsArrayStart(in: bytes) else { return nil }
        let decoder = JSONDecoder()
        var alarms: [Alarm] = []
        var index = start
        while let object = nextObject(in: bytes, from: &index) {
            if let alarm = try? decoder.decode(Alarm.self, from: Data(bytes[object])) { alarms.append(alarm) }
            guard alarms.count < maximumAlarms else { break }
        }
        let book = AlarmBook(recovered: alarms)
        guard !book.alarms.isEmpty else { return nil }
        return (book, "\(book.alarms.count) alarm(s)")
    }

    /// The index just past the `[` of `"alarms": [`. The quote before `alarms` cannot be inside
    /// a label: quotes in strings are written escaped.
    private static func alarmsArrayStart(in bytes: [UInt8]) -> Int? {
        let key = Array(#""alarms""#.utf8)
        var index = 0
        while index + key.count <= bytes.count {
            defer { index += 1 }
            guard bytes[index] == key[0], bytes[index..<index + key.count].elementsEqual(key) else { continue }
            var cursor = skipSpace(bytes, index + key.count)
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { continue }
            cursor = skipSpace(bytes, cursor + 1)
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "[") else { continue }
            return cursor + 1
        }
        return nil
    }

    /// The byte range of the next complete `{…}` element of the array at `index` (advanced past
    /// it), or nil at the array's end or where the file is cut.
    private static func nextObject(in bytes: [UInt8], from index: inout Int) -> Range<Int>? {
        index = skipSpace(bytes, index)
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(bytes, index + 1) }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        let start = index
        var depth = 0
        var inString = false
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return start..<index }
            default: break
            }
        }
        return nil
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: Int) -> Int {
        var index = index
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }
}
