/// Orders names the way people number things: "2 x" before "10 x", "Track 9" before "track 10".
///
/// Digit runs compare by value (any length, leading zeros ignored), other runs compare without
/// regard to case; names that are still equal fall back to a plain comparison so the order is
/// total and stable across runs.
public enum NaturalOrder {
    /// Whether `lhs` sorts before `rhs`.
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        switch compare(lhs, rhs) {
        case .some(let less): less
        case .none: lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
        }
    }

    /// true or false when the natural order decides, nil when the names are naturally equal.
    private static func compare(_ lhs: String, _ rhs: String) -> Bool? {
        var left = runs(of: lhs).makeIterator(), right = runs(of: rhs).makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return nil
            case (nil, _): return true
            case (_, nil): return false
            case let (l?, r?):
                if let decided = compare(l, r) { return decided }
            }
        }
    }

    private enum Run {
        case digits(Substring)
        case text(String)
    }

    private static func compare(_ lhs: Run, _ rhs: Run) -> Bool? {
        switch (lhs, rhs) {
        case let (.digits(l), .digits(r)):
            let a = l.drop { $0 == "0" }, b = r.drop { $0 == "0" }
            if a.count != b.count { return a.count < b.count }
            if a != b { return a < b }
            return nil
        case let (.text(l), .text(r)):
            return l == r ? nil : l < r
        // Numbers before words, as file managers do.
        case (.digits, .text): return true
        case (.text, .digits): return false
        }
    }

    private static func runs(of name: String) -> [Run] {
        var result: [Run] = []
        var start = name.startIndex
        while start < name.endIndex {
            let isDigit = name[start].isASCII && name[start].isNumber
            let end = name[start...].firstIndex { ($0.isASCII && $0.isNumber) != isDigit } ?? name.endIndex
            let run = name[start..<end]
            result.append(isDigit ? .digits(run) : .text(run.lowercased()))
            start = end
        }
        return result
    }
}
