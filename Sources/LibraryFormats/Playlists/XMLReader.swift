/// A small, forgiving pull reader for the XML that playlists use: elements and text only.
///
/// FoundationXML would need libxml2 at run time, and playlists in the wild are often not
/// well-formed, so this reads what it can: comments, processing instructions and DOCTYPE are
/// skipped (entities declared there are never expanded, so no entity bombs or external
/// fetches), attributes are skipped, namespace prefixes are dropped, CDATA is text, and a `<`
/// that starts no tag is text. Nothing recurses, so deep nesting cannot overflow the stack.
public struct XMLReader {
    public enum Event: Equatable {
        case start(String)
        case end(String)
        case text(String)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var pendingEnd: String?

    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    public mutating func next() -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { return .text(readText()) }
            if skip(prefix: "<!--", through: "-->") || skip(prefix: "<?", through: "?>") { continue }
            if hasPrefix("<![CDATA[") {
                let start = index + 9
                let end = find("]]>", from: start) ?? bytes.count
                index = min(bytes.count, end + 3)
                return .text(String(decoding: bytes[start..<end], as: UTF8.self))
            }
            if hasPrefix("<!") {
                skipDeclaration()
                continue
            }
            if hasPrefix("</") {
                index += 2
                let name = readName()
                index = (find(">", from: index) ?? bytes.count - 1) + 1
                return .end(name)
            }
            index += 1
            let name = readName()
            guard !name.isEmpty else { return .text("<") }
            let selfClosing = skipAttributes()
            if selfClosing { pendingEnd = name }
            return .start(name)
        }
        return nil
    }

    /// Text up to the next `<`, entities decoded.
    private mutating func readText() -> String {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
        return Self.decodeEntities(bytes[start..<index])
    }

    /// An element name without its namespace prefix.
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
        let name = bytes[start..<index]
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    /// Moves past the attributes and `>` of a start tag; whether it ended with `/>`.
    private mutating func skipAttributes() -> Bool {
        var quote: UInt8?
        var previous: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return previous == UInt8(ascii: "/")
            }
            previous = byte
        }
        return false
    }

    /// Skips `<!DOCTYPE …>` including an internal subset in brackets.
    private mutating func skipDeclaration() {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
    }

    private mutating func skip(prefix: String, through terminator: String) -> Bool {
        guard hasPrefix(prefix) else { return false }
        let end = find(terminator, from: index + prefix.utf8.count) ?? bytes.count
        index = min(bytes.count, end + terminator.utf8.count)
        return true
    }

    private func hasPrefix(_ prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    private func find(_ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        var position = start
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0], bytes[position..<position + pattern.count].elementsEqual(pattern) {
                return position
            }
            position += 1
        }
        return nil
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "<")
    }

    /// The five predefined entities and character references; anything else stays literal.
    public static func decodeEntities(_ text: ArraySlice<UInt8>) -> String {
        guard text.contains(UInt8(ascii: "&")) else { return String(decoding: text, as: UTF8.self) }
        var output = ""
        var position = text.startIndex
        var literalStart = position
        while position < text.endIndex {
            guard text[position] == UInt8(ascii: "&"),
                  let semicolon = text[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
                  let scalar = entity(String(decoding: text[(position + 1)..<semicolon], as: UTF8.self)) else {
                position += 1
                continue
            }
            output += String(decoding: text[literalStart..<position], as: UTF8.self)
            output.unicodeScalars.append(scalar)
            position = semicolon + 1
            literalStart = position
        }
        output += String(decoding: text[literalStart..<text.endIndex], as: UTF8.self)
        return output
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            guard let value = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10), value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
    }
}
