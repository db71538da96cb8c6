/// How linnet names itself to the desktop: its application id is its desktop entry's name and
/// its `org.freedesktop.Application` bus name (the freedesktop rule for D-Bus-activatable apps).
public enum DesktopIdentity {
    /// `io.linnet.Linnet`: the desktop entry `io.linnet.Linnet.desktop` and the bus name.
    public static let applicationID = "io.linnet.Linnet"
}
