internal import CGLib

/// Conditions on a file descriptor that a loop watch waits for or reports (GLib's `GIOCondition`).
public struct FileEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Data can be read.
    public static let readable = FileEvents(rawValue: G_IO_IN.rawValue)
    /// Data can be written without blocking.
    public static let writable = FileEvents(rawValue: G_IO_OUT.rawValue)
    /// Urgent data can be read.
    public static let priority = FileEvents(rawValue: G_IO_PRI.rawValue)
    /// An error occurred on the descriptor.
    public static let error = FileEvents(rawValue: G_IO_ERR.rawValue)
    /// The peer hung up.
    public static let hangup = FileEvents(rawValue: G_IO_HUP.rawValue)
    /// The descriptor is not open.
    public static let invalid = FileEvents(rawValue: G_IO_NVAL.rawValue)
}
