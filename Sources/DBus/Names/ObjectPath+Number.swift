internal import CDBus

extension ObjectPath {
    /// The child of this path whose element is `number` in decimal (`/a/b` and 7 give `/a/b/7`).
    ///
    /// Always valid without asking libdbus: digits are element characters, and a valid path plus
    /// `/` and a non-empty element is a valid path. Lets a large set of numbered paths be kept as
    /// numbers and spelled out only when one is sent.
    public func appending(number: UInt64) -> ObjectPath {
        ObjectPath(unchecked: rawValue == "/" ? "/\(number)" : "\(rawValue)/\(number)")
    }

    /// The path above this one and the number its last element spells, when that element is a
    /// decimal number written as ``appending(number:)`` writes it (no sign, no leading zero);
    /// nil otherwise, and for `/`.
    public var parentAndNumber: (parent: ObjectPath, number: UInt64)? {
        let utf8 = rawValue.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")),
              let number = Self.number(spelledBy: utf8[utf8.index(after: slash)...]) else { return nil }
        let parent = slash == utf8.startIndex ? "/" : String(rawValue[..<slash])
        return (ObjectPath(unchecked: parent), number)
    }

    /// The number of this path if it is `parent`'s child `<parent>/<number>` as
    /// ``appending(number:)`` spells it; nil otherwise. Reads the bytes in place, building no
    /// parent path (track ids arrive by the thousand).
    public func number(below parent: ObjectPath) -> UInt64? {
        var text = rawValue
        return text.withUTF8 { Self.number(ofPath: $0, below: parent) }
    }

    /// ``number(below:)`` for a path given as its UTF-8 bytes, as a received message holds it
    /// (``DBusMethodCall/forEachObjectPath(inArgument:_:)``).
    public static func number(ofPath path: UnsafeBufferPointer<UInt8>, below parent: ObjectPath) -> UInt64? {
        var parentText = parent.rawValue
        return parentText.withUTF8 { parentBytes in
            // Below "/" the element starts right after it; below any other parent, after a "/" of its own.
            let prefixCount = parentBytes.count == 1 ? 1 : parentBytes.count + 1
            guard path.count > prefixCount, path.starts(with: parentBytes),
                  path[prefixCount - 1] == UInt8(ascii: "/") else { return nil }
            return number(spelledBy: path[prefixCount...])
        }
    }

    /// The decimal number `element` spells with no sign and no leading zero, nil otherwise or
    /// past `UInt64`.
    private static func number(spelledBy element: some Collection<UInt8>) -> UInt64? {
        guard let first = element.first, first != UInt8(ascii: "0") || element.count == 1 else { return nil }
        var number: UInt64 = 0
        for byte in element {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowTimes) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowPlus) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowPlus else { return nil }
            number = sum
        }
        return number
    }
}

extension DBusMessageWriter {
    /// Appends the `o` `<parent>/<number>` (``ObjectPath/appending(number:)``) without building
    /// its string: a reply with the 100 000 ids of a track list would otherwise allocate a string
    /// per id.
    public mutating func appendObjectPath(_ parent: ObjectPath, number: UInt64) {
        guard isWriting else { return }
        var parentText = parent.rawValue
        let written = parentText.withUTF8 { parentBytes in
            // The parent, "/" unless the parent is the root, at most 20 digits and the NUL.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: parentBytes.count + 22) { buffer in
                var end = 0
                if parentBytes.count != 1 {
                    for byte in parentBytes {
                        buffer[end] = CChar(bitPattern: byte)
                        end += 1
                    }
                }
                buffer[end] = CChar(bitPattern: UInt8(ascii: "/"))
                end += 1
                let digits = end
                var rest = number
                repeat {
                    buffer[end] = CChar(bitPattern: UInt8(ascii: "0") + UInt8(rest % 10))
                    rest /= 10
                    end += 1
                } while rest > 0
                buffer[digits..<end].reverse()
                buffer[end] = 0
                var cString: UnsafePointer<CChar>? = UnsafePointer(buffer.baseAddress!)
                return withUnsafePointer(to: &cString) { dbus_message_iter_append_basic(iterator, TypeCode.objectPath, $0) }
            }
        }
        if written == 0 { fail(DBusError(.noMemory, "out of memory while building a message")) }
    }
}
