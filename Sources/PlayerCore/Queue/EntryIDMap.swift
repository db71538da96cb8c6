/// Values by queue entry id, stored for how ids are handed out: in runs. A queue's ids come
/// from a counter, so a replaced queue is one run, and later additions continue it. A run is
/// kept as an array indexed by `id - base` (a slot per id, 8 bytes for a reference), and only
/// ids off the run go to a dictionary. A dictionary for all of them cost ~42 bytes per entry at
/// 100 000 (2^18 buckets of 16 bytes: 100 000 is just over 3/4 of 2^17).
///
/// Invariants: `dense` holds no trailing nil; `denseCount` is the number of non-nil slots;
/// no id is both in `dense`'s range with a value and in `sparse`.
public struct EntryIDMap<Value: Sendable>: Sendable {
    /// The id of `dense[0]`.
    private var base: UInt64 = 0
    private var dense: [Value?] = []
    private var denseCount = 0
    private var sparse: [UInt64: Value] = [:]

    /// A gap this small after the run is filled with empty slots, so that an id handed out
    /// after a few removed ones still extends the run.
    private static var maximumGap: UInt64 { 16 }

    /// An empty map.
    public init() {}

    /// The number of ids with a value.
    public var count: Int { denseCount + sparse.count }

    /// Every id with a value, in no particular order. O(n).
    public var keys: [UInt64] {
        var keys: [UInt64] = []
        keys.reserveCapacity(count)
        for (offset, value) in dense.enumerated() where value != nil { keys.append(base + UInt64(offset)) }
        keys.append(contentsOf: sparse.keys)
        return keys
    }

    /// The value for `id`, if any. O(1).
    public subscript(id: UInt64) -> Value? {
        get {
            if let slot = slot(of: id) { return dense[slot] }
            return sparse[id]
        }
        set {
            if let newValue { set(newValue, for: id) } else { remove(id) }
        }
    }

    /// The value for `id`, or `defaultValue` when there is none (a set stores it).
    public subscript(id: UInt64, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[id] ?? defaultValue() }
        set { self[id] = newValue }
    }

    /// Removes every value; the next values start a new run.
    mutating func removeAll() {
        self = EntryIDMap()
    }

    /// Makes room for a run of `count` ids.
    mutating func reserveCapacity(_ count: Int) {
        dense.reserveCapacity(count)
    }

    private func slot(of id: UInt64) -> Int? {
        guard id >= base, id - base < UInt64(dense.count) else { return nil }
        return Int(id - base)
    }

    private mutating func set(_ value: Value, for id: UInt64) {
        if let slot = slot(of: id) {
            if dense[slot] == nil { denseCount += 1 }
            dense[slot] = value
            return
        }
        if dense.isEmpty { base = id }
        let end = base + UInt64(dense.count)
        guard id >= end, id - end <= Self.maximumGap else {
            sparse[id] = value
            return
        }
        // The run grows over the gap: ids there that were kept off the run move onto it.
        for gapID in end..<id {
            let moved = sparse.removeValue(forKey: gapID)
            if moved != nil { denseCount += 1 }
            dense.append(moved)
        }
        sparse[id] = nil
        dense.append(value)
        denseCount += 1
    }

    private mutating func remove(_ id: UInt64) {
        guard let slot = slot(of: id) else {
            sparse[id] = nil
            return
        }
        guard dense[slot] != nil else { return }
        dense[slot] = nil
        denseCount -= 1
        while let last = dense.last, last == nil { dense.removeLast() }
        if denseCount == 0 {
            dense = []
        } else if dense.count >= 1024, denseCount < dense.count / 4 {
            // Mostly holes: what is left costs less by id than by slot.
            for (offset, value) in dense.enumerated() {
                if let value { sparse[base + UInt64(offset)] = value }
            }
            dense = []
            denseCount = 0
        }
    }
}
