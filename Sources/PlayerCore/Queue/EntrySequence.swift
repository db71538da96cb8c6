/// The queue's entries in natural order, kept so that inserting, removing and finding an entry by
/// id or by position do not copy or scan the queue: a lookup by id scans one chunk (at most
/// ``chunkCapacity`` entries), and an edit adds a pass over the per-chunk tables, one row per
/// chunk (100 000 entries: a few hundred steps, no copy).
///
/// Entries live in chunks of at most ``chunkCapacity``; an edit touches one chunk and then
/// refreshes the per-chunk tables (`starts`, `slotByKey`), which have n / chunk-size rows.
/// Each entry id maps to the stable key of its chunk, so a lookup by id is an ``EntryIDMap``
/// lookup, a hash lookup and a scan of one chunk.
///
/// Invariants: no chunk is empty and none holds more than ``chunkCapacity`` entries;
/// `starts[i]` is the number of entries in `chunks[..<i]`; `slotByKey[chunks[i].key] == i`;
/// `chunkKeyByID[e.id] == chunks[i].key` for every entry `e` of `chunks[i]`; ids are unique.
struct EntrySequence: Sendable {
    /// The most entries one chunk holds; a fuller chunk is split in halves.
    static let chunkCapacity = 256

    private struct Chunk: Sendable {
        /// Stable for the chunk's life, unlike its position among the chunks.
        var key: UInt64
        var entries: [QueueEntry]
    }

    private var chunks: [Chunk] = []
    private var starts: [Int] = []
    private var slotByKey: [UInt64: Int] = [:]
    private var chunkKeyByID = EntryIDMap<UInt64>()
    private var nextKey: UInt64 = 0
    /// The number of entries.
    private(set) var count = 0

    /// An empty sequence.
    init() {}

    /// The entries of `entries`, in order; their ids must be unique.
    init(_ entries: [QueueEntry]) {
        chunkKeyByID.reserveCapacity(entries.count)
        append(contentsOf: entries)
    }

    var isEmpty: Bool { count == 0 }

    /// Every entry, in order. O(n).
    var array: [QueueEntry] {
        var result: [QueueEntry] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk.entries) }
        return result
    }

    /// Every id, in order. O(n).
    var ids: [UInt64] {
        var result: [UInt64] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk.entries.lazy.map(\.id)) }
        return result
    }

    var first: QueueEntry? { chunks.first?.entries.first }
    var last: QueueEntry? { chunks.last?.entries.last }

    /// The entry at `index`, which must be in `0..<count`. O(log n).
    subscript(index: Int) -> QueueEntry {
        let (slot, offset) = locate(index)
        return chunks[slot].entries[offset]
    }

    /// Whether an entry has this id. O(1).
    func contains(id: UInt64) -> Bool {
        chunkKeyByID[id] != nil
    }

    /// The position of the entry `id`, if there is one. O(chunk size).
    func index(of id: UInt64) -> Int? {
        guard let (slot, offset) = place(of: id) else { return nil }
        return starts[slot] + offset
    }

    /// The entry with this id, if there is one. O(chunk size).
    func entry(id: UInt64) -> QueueEntry? {
        place(of: id).map { chunks[$0.slot].entries[$0.offset] }
    }

    /// Calls `body` with each entry in order, without building an array.
    func forEach(_ body: (QueueEntry) throws -> Void) rethrows {
        for chunk in chunks {
            for entry in chunk.entries { try body(entry) }
        }
    }

    /// Whether any entry satisfies `predicate`, in order, stopping at the first.
    func contains(where predicate: (QueueEntry) throws -> Bool) rethrows -> Bool {
        for chunk in chunks where try chunk.entries.contains(where: predicate) { return true }
        return false
    }

    /// Inserts `newEntries` (ids unique and not present) so that the first lands at `index`,
    /// which must be in `0...count`. One chunk plus the per-chunk tables, plus `newEntries.count`.
    mutating func insert(contentsOf newEntries: [QueueEntry], at index: Int) {
        guard !newEntries.isEmpty else { return }
        precondition(index >= 0 && index <= count, "insertion index out of range")
        guard !chunks.isEmpty else { return append(contentsOf: newEntries) }
        let (slot, offset) = index == count ? (chunks.count - 1, chunks[chunks.count - 1].entries.count) : locate(index)
        let key = chunks[slot].key
        for entry in newEntries { chunkKeyByID[entry.id] = key }
        chunks[slot].entries.insert(contentsOf: newEntries, at: offset)
        count += newEntries.count
        if chunks[slot].entries.count > Self.chunkCapacity {
            split(slot)
        } else {
            refreshTables(from: slot + 1, startsOnly: true)
        }
    }

    /// Removes the entry `id` and returns its former position, or nil when there is none.
    /// One chunk plus the per-chunk tables.
    mutating func remove(id: UInt64) -> Int? {
        guard let (slot, offset) = place(of: id) else { return nil }
        let index = starts[slot] + offset
        chunkKeyByID[id] = nil
        chunks[slot].entries.remove(at: offset)
        count -= 1
        if chunks[slot].entries.isEmpty {
            slotByKey[chunks[slot].key] = nil
            chunks.remove(at: slot)
            starts.remove(at: slot)
            refreshTables(from: slot, startsOnly: false)
        } else if !mergeIfSmall(slot) {
            refreshTables(from: slot + 1, startsOnly: true)
        }
        return index
    }

    /// Replaces every entry's URI by `rewrite`'s result; order and ids unchanged.
    mutating func rewriteURIs(_ rewrite: (String) -> String) {
        for slot in chunks.indices {
            for offset in chunks[slot].entries.indices {
                chunks[slot].entries[offset].uri = rewrite(chunks[slot].entries[offset].uri)
            }
        }
    }

    // MARK: - Chunk bookkeeping

    private func place(of id: UInt64) -> (slot: Int, offset: Int)? {
        guard let key = chunkKeyByID[id], let slot = slotByKey[key] else { return nil }
        let entries = chunks[slot].entries
        // Entries queued together have consecutive ids (a folder, a playlist), so the offset the
        // id gives from the chunk's first entry is usually the one: checked before the scan.
        if let first = entries.first?.id, id >= first, id - first < UInt64(entries.count),
           entries[Int(id - first)].id == id {
            return (slot, Int(id - first))
        }
        return entries.firstIndex(where: { $0.id == id }).map { (slot, $0) }
    }

    /// The chunk holding position `index` (in `0..<count`) and the offset in it: a binary search
    /// over `starts`.
    private func locate(_ index: Int) -> (slot: Int, offset: Int) {
        precondition(index >= 0 && index < count, "index out of range")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    private mutating func append(contentsOf newEntries: [QueueEntry]) {
        var rest = newEntries[...]
        if let lastSlot = chunks.indices.last, chunks[lastSlot].entries.count < Self.chunkCapacity {
            let room = Self.chunkCapacity - chunks[lastSlot].entries.count
            let head = rest.prefix(room)
            for entry in head { chunkKeyByID[entry.id] = chunks[lastSlot].key }
            chunks[lastSlot].entries.append(contentsOf: head)
            count += head.count
            rest = rest.dropFirst(head.count)
        }
        while !rest.isEmpty {
            let piece = Array(rest.prefix(Self.chunkCapacity))
            rest = rest.dropFirst(piece.count)
            let key = makeKey()
            for entry in piece { chunkKeyByID[entry.id] = key }
            slotByKey[key] = chunks.count
            starts.append(count)
            chunks.append(Chunk(key: key, entries: piece))
            count += piece.count
        }
    }

    /// Splits the over-full chunk at `slot` into chunks of half the capacity, moving the
    /// entries of the new chunks to their new keys.
    private mutating func split(_ slot: Int) {
        let entries = chunks[slot].entries
        let half = Self.chunkCapacity / 2
        chunks[slot].entries = Array(entries.prefix(half))
        var pieces: [Chunk] = []
        var start = half
        while start < entries.count {
            let piece = Array(entries[start..<min(start + half, entries.count)])
            let key = makeKey()
            for entry in piece { chunkKeyByID[entry.id] = key }
            pieces.append(Chunk(key: key, entries: piece))
            start += half
        }
        chunks.insert(contentsOf: pieces, at: slot + 1)
        starts.insert(contentsOf: repeatElement(0, count: pieces.count), at: slot + 1)
        refreshTables(from: slot + 1, startsOnly: false)
    }

    /// Joins the chunk at `slot` with a neighbour when it has shrunk to a quarter of the
    /// capacity and the two fit in one, so the number of chunks stays O(n / capacity).
    /// Returns whether it merged (the tables are then refreshed).
    private mutating func mergeIfSmall(_ slot: Int) -> Bool {
        guard chunks[slot].entries.count <= Self.chunkCapacity / 4 else { return false }
        let neighbour = slot + 1 < chunks.count ? slot + 1 : slot - 1
        guard neighbour >= 0, chunks[neighbour].entries.count + chunks[slot].entries.count <= Self.chunkCapacity else {
            return false
        }
        let (kept, absorbed) = (min(slot, neighbour), max(slot, neighbour))
        let key = chunks[kept].key
        for entry in chunks[absorbed].entries { chunkKeyByID[entry.id] = key }
        chunks[kept].entries.append(contentsOf: chunks[absorbed].entries)
        slotByKey[chunks[absorbed].key] = nil
        chunks.remove(at: absorbed)
        starts.remove(at: absorbed)
        refreshTables(from: absorbed, startsOnly: false)
        return true
    }

    /// Recomputes `starts` (and, when chunks moved, `slotByKey`) from `slot` on.
    private mutating func refreshTables(from slot: Int, startsOnly: Bool) {
        var start = slot == 0 ? 0 : starts[slot - 1] + chunks[slot - 1].entries.count
        for index in slot..<chunks.count {
            starts[index] = start
            start += chunks[index].entries.count
            if !startsOnly { slotByKey[chunks[index].key] = index }
        }
    }

    /// How many chunks hold the entries (for tests of the chunking).
    var chunkCount: Int { chunks.count }

    /// Whether the invariants in the type's documentation hold. O(n); for tests.
    var isWellFormed: Bool {
        var start = 0
        for (slot, chunk) in chunks.enumerated() {
            guard !chunk.entries.isEmpty, chunk.entries.count <= Self.chunkCapacity, starts[slot] == start,
                slotByKey[chunk.key] == slot, chunk.entries.allSatisfy({ chunkKeyByID[$0.id] == chunk.key })
            else { return false }
            start += chunk.entries.count
        }
        return start == count && chunkKeyByID.count == count && slotByKey.count == chunks.count
            && starts.count == chunks.count
    }

    private mutating func makeKey() -> UInt64 {
        defer { nextKey &+= 1 }
        return nextKey
    }
}

extension EntrySequence: Equatable {
    /// Equal when the entries are, in the same order, however they are chunked.
    static func == (lhs: EntrySequence, rhs: EntrySequence) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.array == rhs.array
    }
}
