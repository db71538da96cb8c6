/// Reads LRC lyrics: lines starting with one or more `[mm:ss.xx]` stamps, an optional
/// `[offset:±ms]` (positive shows lines earlier), and ID tags such as `[ar:…]` or `[ti:…]`, which
/// are ignored. Enhanced-LRC word stamps `<mm:ss.xx>` are stripped from the text.
public enum LRCParser {
    /// The lyrics in `text`. When no line carries a time stamp, the text (ID tags removed) is
    /// returned as plain lyrics with no synced lines.
    public static func parse(_ text: String) -> Lyrics {
        var stamped: [(time: Int64, order: Int, text: String)] = []
        var untimed: [String] = []
        var offsetMicroseconds: Int64 = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var rest = Substring(rawLine.trimmingWhitespace())
            var times: [Int64] = []
            var isTag = false
            while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let time = timestamp(inside) {
                    times.append(time)
                } else if let colon = inside.firstIndex(of: ":"), inside[..<colon].allSatisfy(\.isLetter) {
                    if inside[..<colon].lowercased() == "offset",
                       let milliseconds = Int64(inside[inside.index(after: colon)...].trimmingWhitespace().replacingPlus()) {
                        offsetMicroseconds = milliseconds * 1000
                    }
                    isTag = true
                } else {
                    break
                }
                rest = rest[rest.index(after: close)...]
            }
            let words = stripWordStamps(rest).trimmingWhitespace()
            if !times.isEmpty {
                for time in times { stamped.append((time, stamped.count, words)) }
            } else if !isTag || !words.isEmpty {
                untimed.append(words)
            }
        }
        guard !stamped.isEmpty else {
            return Lyrics(plainText: trimBlankEdges(untimed).joined(separator: "\n"))
        }
        let synced = stamped
            .sorted { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }
            .map { Lyrics.SyncedLine(timeMicroseconds: max(0, $0.time - offsetMicroseconds), text: $0.text) }
        return Lyrics(plainText: trimBlankEdges(synced.map(\.text)).joined(separator: "\n"), synced: synced)
    }

    /// Microseconds for `mm:ss`, `mm:ss.x…` or `mm:ss:xx` (some editors use a colon).
    public static func timestamp(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let minutes = Int64(parts[0]), minutes >= 0, minutes < 100_000 else {
            return nil
        }
        var secondsPart = parts[1]
        var fraction: Substring = ""
        if parts.count == 3 {
            fraction = parts[2]
        } else if let dot = secondsPart.firstIndex(of: ".") {
            fraction = secondsPart[secondsPart.index(after: dot)...]
            secondsPart = secondsPart[..<dot]
        }
        guard secondsPart.count <= 2, let seconds = Int64(secondsPart), (0..<60).contains(seconds),
              fraction.count <= 6, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // "5" is 0.5 s, "05" is 0.05 s, "005" is 0.005 s: the digits are a decimal fraction.
        let padded = fraction + String(repeating: "0", count: 6 - fraction.count)
        let micro = Int64(padded) ?? 0
        return (minutes * 60 + seconds) * 1_000_000 + micro
    }

    private static func stripWordStamps(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">"),
                  timestamp(rest[rest.index(after: open)..<close]) != nil else {
                result += rest[...open]
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += rest[..<open]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private static func trimBlankEdges(_ lines: [String]) -> [String] {
        let slice = lines.drop { $0.isEmpty }
        guard let last = slice.lastIndex(where: { !$0.isEmpty }) else { return [] }
        return Array(slice[...last])
    }
}

extension StringProtocol {
    fileprivate func replacingPlus() -> String {
        hasPrefix("+") ? String(dropFirst()) : String(self)
    }
}
