extension DBusMessageWriter {
    /// Writes a body with `body` into a signal that is never sent; returns the problem that
    /// stopped the writing, or nil.
    ///
    /// For in-process benchmarks of a writer outside this module: it costs what building a real
    /// reply costs (libdbus's marshalling and the writer's checks), without a connection.
    /// Replies themselves are written by the method or property that answers.
    public static func writeScratchBody(_ body: (inout DBusMessageWriter) -> Void) -> DBusError? {
        do {
            _ = try scratchMessage(body)
            return nil
        } catch {
            return error
        }
    }

    /// What a client would read from a body written by `body`; for this package's tests.
    package static func scratchBodyValues(_ body: (inout DBusMessageWriter) -> Void) throws(DBusError) -> [DBusValue] {
        try scratchMessage(body).readArguments()
    }

    private static func scratchMessage(_ body: (inout DBusMessageWriter) -> Void) throws(DBusError) -> Message {
        let message = try Message.signal(path: "/org/linnet/Scratch", interface: "org.linnet.Scratch", member: "Body")
        try message.appendBody(writing: body)
        return message
    }
}
