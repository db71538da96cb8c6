internal import CDBus
import Glibc

extension DBusMethodCall {
    /// Visits the object paths of argument `index`, an `ao`, in order, each as its UTF-8 bytes
    /// (without NUL) read in place from the received message: valid only during `body`, and
    /// already validated by libdbus when it received the message. A call whose arguments were
    /// decoded visits its ``arguments`` the same way.
    ///
    /// Throws `InvalidArgs` if argument `index` is missing or not an `ao`; an error `body`
    /// throws stops the visit and is rethrown.
    public func forEachObjectPath(
        inArgument index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(DBusError) -> Void
    ) throws(DBusError) {
        let notPaths = DBusError(.invalidArgs, "argument \(index) to \(member) is not an array of object paths")
        guard let message else {
            guard arguments.indices.contains(index), case .array(.objectPath, let paths) = arguments[index] else {
                throw notPaths
            }
            for case .objectPath(let path) in paths {
                var text = path.rawValue
                var failure: DBusError?
                text.withUTF8 { bytes in
                    do throws(DBusError) { try body(bytes) } catch { failure = error }
                }
                if let failure { throw failure }
            }
            return
        }
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message.raw, &iterator) != 0 else { throw notPaths }
        for _ in 0..<index {
            guard dbus_message_iter_next(&iterator) != 0 else { throw notPaths }
        }
        guard dbus_message_iter_get_arg_type(&iterator) == TypeCode.array,
              dbus_message_iter_get_element_type(&iterator) == TypeCode.objectPath else { throw notPaths }
        var element = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &element)
        while dbus_message_iter_get_arg_type(&element) == TypeCode.objectPath {
            var pointer: UnsafePointer<CChar>?
            withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&element, $0) }
            if let pointer {
                try body(UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            }
            dbus_message_iter_next(&element)
        }
    }
}
