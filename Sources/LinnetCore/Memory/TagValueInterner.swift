import Synchronization

/// Shares the storage of tag values that many tracks repeat (an album's artist, album title,
/// genre, date, cover), so a queued library holds each once instead of once per track.
/// Measured on 100 000 tagged files (heaptrack, release build): the tag strings read were
/// ~320 B per track and their one-element lists ~144 B, nearly all repeats.
///
/// Bounded: after ``capacity`` distinct values the table starts over. Values already shared
/// stay shared (their holders keep them); only later repeats of old values get a new copy.
/// Values short enough to be stored inline (15 UTF-8 bytes) are not worth a lookup.
final class TagValueInterner: Sendable {
    /// The table every tag read goes through.
    static let shared = TagValueInterner()
    /// Distinct values kept at most per table (a few hundred albums' worth).
    static let capacity = 4_096

    private let strings = Mutex<Set<String>>([])
    private let lists = Mutex<Set<[String]>>([])

    /// `value`, or an equal string already held.
    func string(_ value: String?) -> String? {
        guard let value, value.utf8.count > 15 else { return value }
        return strings.withLock { Self.intern(value, in: &$0) }
    }

    /// `values`, or an equal list already held (its elements interned too).
    func list(_ values: [String]) -> [String] {
        guard !values.isEmpty else { return values }
        let elements = values.map { string($0) ?? $0 }
        return lists.withLock { Self.intern(elements, in: &$0) }
    }

    private static func intern<Value: Hashable>(_ value: Value, in table: inout Set<Value>) -> Value {
        if table.count >= capacity, !table.contains(value) { table.removeAll(keepingCapacity: true) }
        return table.insert(value).memberAfterInsert
    }
}
