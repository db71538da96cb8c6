import FoundationEssentials
import PlayerCore

/// A state whose one large array is written as JSON text directly and spliced into what
/// `JSONEncoder` writes for the rest. The encoder first builds a generic tree of the whole
/// value: for a 100 000-entry queue that was ~40 MB of dictionaries (one per entry) for a
/// 5 MB file, on every save (at most once a second while editing, every 4 s while playing).
/// The file's layout is the same either way.
protocol SplicedJSONState {
    /// Set to `true` in the encoder's user info, `encode(to:)` writes the array empty.
    static var arrayWrittenApartKey: CodingUserInfoKey { get }
    /// The array's key. `"<key>":[]` occurs exactly once in what the encoder writes for the
    /// rest (checked: a state where it does not is encoded whole).
    static var arrayKey: String { get }
    /// Appends the array's elements, comma-separated, as JSON text.
    func appendArrayElements(to text: inout [UInt8])
}

extension SavedSession: SplicedJSONState {
    static var arrayWrittenApartKey: CodingUserInfoKey { PlayQueue.entriesWrittenApart }
    static var arrayKey: String { "entries" }

    /// The queue's entries as `JSONEncoder` with sorted keys writes them: `{"id":…,"uri":…}`.
    func appendArrayElements(to text: inout [UInt8]) {
        text.reserveCapacity(text.count + queue.count * 48)
        var first = true
        queue.forEachEntry { entry in
            if !first { text.append(UInt8(ascii: ",")) }
            first = false
            text.append(contentsOf: #"{"id":"#.utf8)
            text.append(contentsOf: String(entry.id).utf8)
            text.append(contentsOf: #","uri":"#.utf8)
            JSONText.appendString(entry.uri, to: &text)
            text.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONEncoder {
    /// `value` encoded with its array spliced in (see ``SplicedJSONState``); nil when the
    /// array's marker is not found exactly once, and the caller encodes the value whole.
    func encodeSplicing<Value: Encodable>(_ value: Value, array owner: some SplicedJSONState) throws -> [UInt8]? {
        let ownerType = type(of: owner)
        userInfo[ownerType.arrayWrittenApartKey] = true
        defer { userInfo[ownerType.arrayWrittenApartKey] = nil }
        let rest = [UInt8](try encode(value))
        let marker = Array("\"\(ownerType.arrayKey)\":[]".utf8)
        guard let at = rest.firstRange(of: marker), rest[at.upperBound...].firstRange(of: marker) == nil else { return nil }
        var text: [UInt8] = []
        text.append(contentsOf: rest[..<(at.upperBound - 1)])
        owner.appendArrayElements(to: &text)
        text.append(contentsOf: rest[(at.upperBound - 1)...])
        return text
    }
}

/// JSON text written by hand.
enum JSONText {
    /// Appends `string` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else as its UTF-8.
    static func appendString(_ string: String, to text: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        text.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case UInt8(ascii: "\n"):
                text.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"):
                text.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"):
                text.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                text.append(contentsOf: #"\u00"#.utf8)
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0xF)])
            default:
                text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }
}
