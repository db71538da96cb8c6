import Synchronization

/// Puts the tag reads of one file in the order they started, so that a read which started
/// earlier but lands later (a large folder's first scan still in flight when a tagger rewrote the
/// file, and the watcher's read of the new tags came back first) does not replace the newer one.
///
/// Every read takes a ticket as it starts. Only files read again after a change are remembered
/// (the watcher's reads), so a library that does not change costs one ticket per batch; a
/// remembered file keeps the ticket of its newest read for the life of the player.
final class TagReadOrder: Sendable {
    private struct State {
        var lastTicket: UInt64 = 0
        var newestReread: [String: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// A ticket for a read that starts now.
    func ticket() -> UInt64 {
        state.withLock { state in
            state.lastTicket += 1
            return state.lastTicket
        }
    }

    /// A ticket for reading `uris` again now, after a change: from here on, an earlier read of
    /// them is stale.
    func rereading(_ uris: some Sequence<String>) -> UInt64 {
        state.withLock { state in
            state.lastTicket += 1
            for uri in uris { state.newestReread[uri] = state.lastTicket }
            return state.lastTicket
        }
    }

    /// Of `uris`, read with `ticket`, whether each is still the newest read of its file.
    func areCurrent(_ uris: [String], ticket: UInt64) -> [Bool] {
        state.withLock { state in
            guard !state.newestReread.isEmpty else { return Array(repeating: true, count: uris.count) }
            return uris.map { uri in state.newestReread[uri].map { $0 <= ticket } ?? true }
        }
    }
}
