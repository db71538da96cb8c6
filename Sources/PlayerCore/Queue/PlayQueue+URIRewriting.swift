extension PlayQueue {
    /// This queue with every entry's URI passed through `rewrite`; ids, order, the current
    /// entry, shuffle plan and generator unchanged. For saving what may be written down (the
    /// owner removes stream credentials this way) while the live queue keeps what plays.
    public func rewritingURIs(_ rewrite: (String) -> String) -> PlayQueue {
        var copy = self
        copy.storage.rewriteURIs(rewrite)
        return copy
    }
}
