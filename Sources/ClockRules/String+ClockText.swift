extension StringProtocol {
    /// The text without leading and trailing whitespace (spaces, tabs, line breaks).
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

extension BinaryInteger {
    /// The number in decimal, zero-padded to at least `width` digits: `7.padded(2)` is `07`.
    func padded(_ width: Int) -> String {
        let digits = String(self.magnitude)
        let sign = self < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
