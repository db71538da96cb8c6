extension DBusError {
    /// How much of a caller's input an error message may quote. Inputs can be as large as a
    /// message (128 MiB): an error that echoed one whole would cost its own size again to send
    /// and would land in the caller's logs.
    public static let excerptBytes = 100

    /// The longest error message sent on the bus; longer ones are cut (see ``Message``'s error
    /// construction), so even a handler that quotes an input whole cannot send it back.
    public static let maximumMessageBytes = 1024

    /// `text` when it is at most `maxBytes` of UTF-8, otherwise its first `maxBytes` (cut at a
    /// character boundary) followed by "…(N bytes)", so an error message can quote caller input
    /// without repeating an unbounded amount of it.
    public static func excerpt(_ text: some StringProtocol, maxBytes: Int = excerptBytes) -> String {
        let utf8 = text.utf8
        // Counting stops just past the limit: the cost of a short check never depends on the
        // size of the input.
        guard utf8.prefix(maxBytes + 1).count > maxBytes else { return String(text) }
        return excerpt(bytes: utf8.prefix(maxBytes + 1), totalBytes: utf8.count, maxBytes: maxBytes)
    }

    /// The excerpt of a UTF-8 input given as its first bytes (more than `maxBytes` of them when
    /// it is longer) and its total length if known, for callers that never made a `String` of
    /// it; an unknown total shows as a bare "…".
    static func excerpt(bytes: some Collection<UInt8>, totalBytes: Int?, maxBytes: Int = excerptBytes) -> String {
        let bytes = Array(bytes)
        var end = min(bytes.count, maxBytes)
        // Never end inside a multi-byte character: back off over continuation bytes and the
        // lead byte they belong to.
        if end < bytes.count {
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        guard end < bytes.count || (totalBytes ?? end) > end else { return head }
        return totalBytes.map { "\(head)…(\($0) bytes)" } ?? "\(head)…"
    }

    /// This error with its message cut to ``maximumMessageBytes``.
    var bounded: DBusError {
        guard message.utf8.count > Self.maximumMessageBytes else { return self }
        return DBusError(name, Self.excerpt(message, maxBytes: Self.maximumMessageBytes))
    }
}
