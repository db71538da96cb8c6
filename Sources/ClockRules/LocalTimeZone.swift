/// The machine's time zone, for the wall-clock times of alarms.
public enum LocalTimeZone {
    /// The zone in force now, read afresh each time from `TZ` or `/etc/localtime`, so a zone
    /// changed while linnet runs (`timedatectl set-timezone`) applies at once.
    public static var current: any ZoneRules { SystemTimeZone() }
}
