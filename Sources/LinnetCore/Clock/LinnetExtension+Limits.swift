import DBus

/// The caps on every input of `io.linnet.Linnet1`, in one place: the README's security section
/// and the annotations in `dbus/io.linnet.Linnet1.xml` list the same numbers (a test compares
/// the XML with what linnet introspects). Argument limits are checked on the received message
/// before anything is decoded; the per-option caps once the (already bounded) map is read.
public enum LinnetLimits {
    /// AddAlarm's `time`: the longest real one ("2026-12-24T18:00:00+01:00") is 25 bytes.
    public static let timeBytes = 128
    /// Option maps (AddAlarm, StartPomodoro): at most this many entries…
    public static let optionEntries = 32
    /// …and no string in them (keys, values) longer than this: paths and URIs fit.
    public static let optionStringBytes = 8192
    /// An alarm's label.
    public static let labelBytes = 1024
    /// A repeat rule such as `MON,TUE,WED,THU,FRI`.
    public static let repeatRuleBytes = 128
    /// A duration given as text (`25m`, `1h30m`).
    public static let durationBytes = 64
    /// A sound, bell or music path or URI.
    public static let pathBytes = optionStringBytes

    /// AddAlarm's `time`.
    static let time = DBusArgumentLimit.string(maxBytes: timeBytes)
    /// An `a{sv}` of options.
    static let options = DBusArgumentLimit.dictionary(maxEntries: optionEntries, maxStringBytes: optionStringBytes)

    /// `text` if it is at most `maxBytes`, else LimitsExceeded naming `what` and quoting the
    /// start of it.
    static func check(_ text: String, maxBytes: Int, what: String) throws(DBusError) -> String {
        guard text.utf8.count > maxBytes else { return text }
        throw DBusError(.limitsExceeded, "\(what) is longer than \(maxBytes) bytes (\"\(DBusError.excerpt(text))\")")
    }
}
