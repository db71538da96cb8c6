internal import CDBus

/// Owns one reference to a libdbus `DBusMessage`.
final class Message: @unchecked Sendable {
    let raw: OpaquePointer

    /// Adopts a reference the caller already owns.
    init(adopting raw: OpaquePointer) { self.raw = raw }

    /// Takes an additional reference to `raw`.
    init(retaining raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
    ) throws(DBusError) -> Message {
        guard let raw = dbus_message_new_method_call(
            destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)
        else { throw DBusError(.noMemory, "cannot allocate a method call") }
        return Message(adopting: raw)
    }

    static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName) throws(DBusError) -> Message {
        guard let raw = dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue) else {
            throw DBusError(.noMemory, "cannot allocate a signal")
        }
        return Message(adopting: raw)
    }

    func makeReturn() throws(DBusError) -> Message {
        guard let reply = dbus_message_new_method_return(raw) else {
            throw DBusError(.noMemory, "cannot allocate a reply")
        }
        return Message(adopting: reply)
    }

    /// A copy of this unsent message (the copy is unsent too: serial 0, unlocked).
    func unsentCopy() -> Message? {
        dbus_message_copy(raw).map(Message.init(adopting:))
    }

    /// A copy of this unsent reply made the reply to `call`: the reply serial and destination
    /// become the call's, as `dbus_message_new_method_return` sets them.
    func copy(replyingTo call: Message) -> Message? {
        guard let copy = unsentCopy(),
              dbus_message_set_reply_serial(copy.raw, dbus_message_get_serial(call.raw)) != 0,
              dbus_message_set_destination(copy.raw, dbus_message_get_sender(call.raw)) != 0
        else { return nil }
        return copy
    }

    func makeError(_ error: DBusError) -> Message? {
        // Bounded whatever the handler wrote, so no error can carry a caller's input back whole.
        let error = error.bounded
        // libdbus needs a valid UTF-8 message without NUL; degrade rather than abort.
        let text = isValid(error.message, dbus_validate_utf8) ? error.message : "invalid error message"
        return dbus_message_new_error(raw, error.name.rawValue, text).map(Message.init(adopting:))
    }

    var kind: Int32 { dbus_message_get_type(raw) }
    var isMethodCall: Bool { kind == DBUS_MESSAGE_TYPE_METHOD_CALL }
    var isSignal: Bool { kind == DBUS_MESSAGE_TYPE_SIGNAL }
    var isError: Bool { kind == DBUS_MESSAGE_TYPE_ERROR }

    // Header fields are valid by construction: libdbus validates them when it loads a received
    // message and when one is built from our (validated) names, so they are not checked again.
    var path: ObjectPath? { dbus_message_get_path(raw).map { ObjectPath(unchecked: String(cString: $0)) } }
    var interface: InterfaceName? {
        dbus_message_get_interface(raw).map { InterfaceName(unchecked: String(cString: $0)) }
    }
    var member: MemberName? { dbus_message_get_member(raw).map { MemberName(unchecked: String(cString: $0)) } }
    var sender: BusName? { dbus_message_get_sender(raw).map { BusName(unchecked: String(cString: $0)) } }
    var destination: BusName? {
        dbus_message_get_destination(raw).map { BusName(unchecked: String(cString: $0)) }
    }
    /// The path and interface header fields as libdbus holds them, for comparisons that need no
    /// Swift string; valid while this message lives.
    var pathText: UnsafePointer<CChar>? { dbus_message_get_path(raw) }
    var interfaceText: UnsafePointer<CChar>? { dbus_message_get_interface(raw) }
    var errorName: ErrorName? {
        dbus_message_get_error_name(raw).flatMap { ErrorName(rawValue: String(cString: $0)) }
    }
    var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }
    var serial: UInt32 { dbus_message_get_serial(raw) }

    func setNoReply() { dbus_message_set_no_reply(raw, 1) }

    func setDestination(_ destination: BusName) {
        _ = dbus_message_set_destination(raw, destination.rawValue)
    }

    /// The error this message carries, if it is an error reply.
    var asError: DBusError? {
        guard isError else { return nil }
        let name = errorName ?? .failed
        let text: String
        if let first = try? readArguments().first, case .string(let message) = first {
            text = message
        } else {
            text = ""
        }
        return DBusError(name, text)
    }
}
