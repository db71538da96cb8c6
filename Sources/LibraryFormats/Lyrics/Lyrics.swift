/// Lyrics of a track: plain text, and time-stamped lines when the source has them.
public struct Lyrics: Sendable, Hashable {
    /// One line to show from a moment of the track on.
    public struct SyncedLine: Sendable, Hashable {
        /// When the line starts, in microseconds from the start of the track.
        public var timeMicroseconds: Int64
        /// The words, without time stamps.
        public var text: String

        /// A line starting at `timeMicroseconds`.
        public init(timeMicroseconds: Int64, text: String) {
            self.timeMicroseconds = timeMicroseconds
            self.text = text
        }
    }

    /// The words with every time stamp and tag removed, one line per line sung: for LRC, the
    /// synced lines in time order (a chorus stamped three times appears three times).
    public var plainText: String
    /// Time-stamped lines sorted by time (stable for equal times); empty for plain text sources.
    public var synced: [SyncedLine]
    /// The path of the sidecar file they were read from, if any.
    public var sourcePath: String?

    /// Lyrics with `plainText`, `synced` lines and their `sourcePath`.
    public init(plainText: String, synced: [SyncedLine] = [], sourcePath: String? = nil) {
        self.plainText = plainText
        self.synced = synced
        self.sourcePath = sourcePath
    }
}
