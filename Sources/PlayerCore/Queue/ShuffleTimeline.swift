/// The shuffled play order's ids as a sequence of small chunks, with where each id is, so that
/// reading near an index, inserting, and finding and removing an id cost O(chunk size + chunk
/// count), about O(√n), instead of moving or scanning every id of a 100 000-entry queue.
///
/// Ids repeat only in the history (an entry replayed by a jump); an id's chunk is looked up in
/// ``home`` when it occurs once, in ``repeated`` when it occurs more often.
struct ShuffleTimeline: Sendable {
    /// Most ids in one chunk; a chunk that grows past it is split in two.
    static let chunkCapacity = 512

    private var chunks: [[UInt64]] = []
    /// A stable key per chunk, parallel to `chunks` (indices shift when a chunk splits or goes).
    private var keys: [UInt32] = []
    private var nextKey: UInt32 = 0
    /// The chunk key of each id that occurs once.
    private var home: [UInt64: UInt32] = [:]
    /// The chunk keys of each occurrence of ids that occur more than once (one key per occurrence).
    private var repeated: [UInt64: [UInt32]] = [:]
    private(set) var count = 0

    init(_ ids: [UInt64] = []) {
        append(contentsOf: ids)
    }

    /// Every id in order (O(n): for encoding and checks, not for edits).
    var array: [UInt64] { chunks.flatMap { $0 } }

    subscript(index: Int) -> UInt64 {
        let (chunk, offset) = locate(index)
        return chunks[chunk][offset]
    }

    /// The indices where `id` occurs, ascending.
    func indices(of id: UInt64) -> [Int] {
        let chunkKeys: [UInt32] = if let key = home[id] { [key] } else { repeated[id] ?? [] }
        var found: [Int] = []
        for key in Set(chunkKeys) {
            guard let chunk = keys.firstIndex(of: key) else { continue }
            let start = startIndex(ofChunk: chunk)
            for (offset, element) in chunks[chunk].enumerated() where element == id { found.append(start + offset) }
        }
        return found.sorted()
    }

    mutating func insert(_ id: UInt64, at index: Int) {
        precondition(index >= 0 && index <= count, "insertion index out of range")
        guard !chunks.isEmpty else { return append(contentsOf: [id]) }
        let (chunk, offset) = index == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(index)
        chunks[chunk].insert(id, at: offset)
        count += 1
        noteAdded(id, in: keys[chunk])
        if chunks[chunk].count > Self.chunkCapacity { split(chunk) }
    }

    /// Removes and returns the id at `index`.
    @discardableResult
    mutating func remove(at index: Int) -> UInt64 {
        let (chunk, offset) = locate(index)
        let id = chunks[chunk].remove(at: offset)
        count -= 1
        noteRemoved(id, from: keys[chunk])
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            keys.remove(at: chunk)
        }
        return id
    }

    mutating func append(contentsOf ids: some Sequence<UInt64>) {
        for id in ids {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkCapacity {
                chunks.append([])
                keys.append(makeKey())
            }
            chunks[chunks.count - 1].append(id)
            count += 1
            noteAdded(id, in: keys[keys.count - 1])
        }
    }

    /// Removes the first `k` ids.
    mutating func removeFirst(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove more ids than there are")
        var left = k
        while left > 0 {
            if chunks[0].count <= left {
                left -= chunks[0].count
                count -= chunks[0].count
                for id in chunks[0] { noteRemoved(id, from: keys[0]) }
                chunks.removeFirst()
                keys.removeFirst()
            } else {
                for id in chunks[0].prefix(left) { noteRemoved(id, from: keys[0]) }
                chunks[0].removeFirst(left)
                count -= left
                left = 0
            }
        }
    }

    /// The chunk holding `index` and the offset in it.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index < count, "index out of range")
        var start = 0
        for (chunk, ids) in chunks.enumerated() {
            if index < start + ids.count { return (chunk, index - start) }
            start += ids.count
        }
        preconditionFailure("the chunks hold fewer ids than count")
    }

    private func startIndex(ofChunk chunk: Int) -> Int {
        chunks[..<chunk].reduce(0) { $0 + $1.count }
    }

    private mutating func makeKey() -> UInt32 {
        defer { nextKey &+= 1 }
        return nextKey
    }

    /// Splits chunk `chunk` in halves; the ids of the second half move to a new key.
    private mutating func split(_ chunk: Int) {
        let half = chunks[chunk].count / 2
        let moved = Array(chunks[chunk][half...])
        chunks[chunk].removeSubrange(half...)
        let oldKey = keys[chunk]
        let newKey = makeKey()
        chunks.insert(moved, at: chunk + 1)
        keys.insert(newKey, at: chunk + 1)
        for id in moved {
            noteRemoved(id, from: oldKey)
            noteAdded(id, in: newKey)
        }
    }

    private mutating func noteAdded(_ id: UInt64, in key: UInt32) {
        if let keys = repeated[id] {
            repeated[id] = keys + [key]
        } else if let first = home.removeValue(forKey: id) {
            repeated[id] = [first, key]
        } else {
            home[id] = key
        }
    }

    private mutating func noteRemoved(_ id: UInt64, from key: UInt32) {
        guard var keys = repeated[id] else {
            home[id] = nil
            return
        }
        if let index = keys.firstIndex(of: key) { keys.remove(at: index) }
        if keys.count == 1 {
            repeated[id] = nil
            home[id] = keys[0]
        } else {
            repeated[id] = keys
        }
    }
}

extension ShuffleTimeline: Equatable {
    static func == (lhs: ShuffleTimeline, rhs: ShuffleTimeline) -> Bool {
        lhs.count == rhs.count && lhs.array == rhs.array
    }
}
