internal import CGStreamer

/// Initialises GStreamer once per process, whoever gets there first.
enum GStreamerRuntime {
    /// Swift runs a static initialiser exactly once, even under concurrent first use, which is
    /// what gst_init requires.
    private static let initialized: Void = {
        gst_init(nil, nil)
    }()

    /// Makes sure GStreamer is initialised before any other call into it.
    static func ensureInitialized() { _ = initialized }
}

/// GStreamer's nanoseconds and MPRIS's microseconds.
enum ClockTime {
    /// GST_CLOCK_TIME_NONE (imports, but every use of the macro fails to compile).
    static let none = UInt.max

    static func microseconds(fromNanoseconds nanoseconds: Int) -> Int64 {
        Int64(nanoseconds) / 1000
    }

    /// Saturates instead of trapping: a D-Bus Seek of Int64.max on a track of unknown length
    /// reached here and the overflow killed the daemon (found by the bus fuzzer).
    static func nanoseconds(fromMicroseconds microseconds: Int64) -> Int {
        let (nanoseconds, overflow) = Int(max(0, microseconds)).multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : nanoseconds
    }
}

/// Takes ownership of a C string that the caller must g_free.
func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Carries a GStreamer object pointer into a closure that runs while its owner keeps it alive.
struct UncheckedPointer<Pointee>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Pointee>
    init(_ pointer: UnsafeMutablePointer<Pointee>) { self.pointer = pointer }
}
