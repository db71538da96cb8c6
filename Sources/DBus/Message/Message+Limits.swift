internal import CDBus
import Glibc

extension Message {
    /// The first argument that breaks its limit (`limits[i]` for argument `i`; nil or missing
    /// entries are not checked), described for an error reply, or nil when all are within.
    ///
    /// Reads libdbus's iterator in place: strings are measured with `strnlen` up to one byte
    /// past the limit and arrays are counted up to one element past theirs, so the check costs
    /// at most the limits' size, never the message's, and nothing is copied or decoded.
    func limitViolation(_ limits: [DBusArgumentLimit?]) -> String? {
        var iterator = DBusMessageIter()
        guard limits.contains(where: { $0 != nil }), dbus_message_iter_init(raw, &iterator) != 0 else { return nil }
        var index = 0
        repeat {
            if index < limits.count, let limit = limits[index] {
                var budget = limit.maxValues
                if let problem = Self.violation(&iterator, limit, budget: &budget) {
                    return "argument \(index): \(problem)"
                }
            }
            index += 1
        } while dbus_message_iter_next(&iterator) != 0
        return nil
    }

    private static func violation(
        _ iterator: inout DBusMessageIter, _ limit: DBusArgumentLimit, budget: inout Int
    ) -> String? {
        budget -= 1
        guard budget >= 0 else { return "more than \(limit.maxValues) values in all" }
        let code = dbus_message_iter_get_arg_type(&iterator)
        switch code {
        case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
            var pointer: UnsafePointer<CChar>?
            withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iterator, $0) }
            guard let pointer else { return nil }
            let length = strnlen(pointer, limit.maxStringBytes + 1)
            guard length > limit.maxStringBytes else { return nil }
            let head = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            // The total length is not measured (that would read it all): the excerpt ends "…".
            let shown = min(DBusError.excerptBytes, limit.maxStringBytes)
            let quoted = DBusError.excerpt(
                bytes: UnsafeBufferPointer(start: head, count: min(length, shown + 1)), totalBytes: nil, maxBytes: shown)
            return "a string of more than \(limit.maxStringBytes) bytes (\"\(quoted)\")"
        case TypeCode.array, TypeCode.structure, TypeCode.dictionaryEntry, TypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var count = 0
            while dbus_message_iter_get_arg_type(&inner) != TypeCode.invalid {
                count += 1
                if code == TypeCode.array, count > limit.maxElements {
                    return "an array or dictionary of more than \(limit.maxElements) elements"
                }
                if let problem = violation(&inner, limit, budget: &budget) { return problem }
                dbus_message_iter_next(&inner)
            }
            return nil
        default:
            return nil
        }
    }
}
