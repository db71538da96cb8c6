public import FoundationEssentials
import Glibc

/// The machine's time zone with its real rules (offsets and DST transitions).
///
/// FoundationEssentials knows only GMT by itself; the zone database comes with
/// FoundationInternationalization and its ICU data, several MiB of resident memory. linnet does
/// not link them: they are loaded here the first time a wall-clock time is needed (an alarm set,
/// listed or due), so a linnet that never sets an alarm never maps them.
public enum LocalTimeZone {
    /// The zone in force now, read afresh each time from `TZ` or `/etc/localtime`, so a zone
    /// changed while linnet runs (`timedatectl set-timezone`) applies at once.
    public static var current: TimeZone {
        guard rulesLoaded else { return TimeZone.current }
        if let identifier = systemIdentifier(), let zone = TimeZone(identifier: identifier) { return zone }
        return TimeZone.current
    }

    /// The zone named `identifier` (`Europe/Berlin`), or nil when there is no such zone.
    public static func zone(identifier: String) -> TimeZone? {
        _ = rulesLoaded
        return TimeZone(identifier: identifier)
    }

    /// Loads the zone database once. Should that fail (a broken Swift installation), every zone
    /// is GMT, which is what FoundationEssentials answers by itself.
    private static let rulesLoaded: Bool = {
        dlopen("libFoundationInternationalization.so", RTLD_NOW | RTLD_GLOBAL) != nil
    }()

    /// `TZ` when it names a zone (`Europe/Berlin`, `:Europe/Berlin`), else the zone
    /// `/etc/localtime` links to; nil when neither says.
    static func systemIdentifier() -> String? {
        if let variable = getenv("TZ") {
            let value = String(cString: variable)
            let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            if !name.isEmpty { return name }
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let marker = target.firstRange(of: "zoneinfo/") else { return nil }
        return String(target[marker.upperBound...])
    }
}
