import DBus
import Synchronization

extension MPRISServer {
    /// GetAll's entries for `table` (``DBusInterface/propertiesWriter``): every readable
    /// property in the table's order, written from one reading of the state under one lock,
    /// so a GetAll never mixes two states and costs one lock instead of one per property.
    /// Position is read first and outside the lock, since it may ask the player (which can
    /// publish, taking the lock), exactly as its own writer reads it.
    ///
    /// While the values stay put (the position and what `same` compares unchanged since the
    /// last GetAll), the reply is written once from a snapshot and copied after that: a paused
    /// player answering a panel's polling rebuilt the same fifteen entries every time.
    func writeAll(
        _ table: [PropertySpec], same: @escaping @Sendable (MPRISState, MPRISState) -> Bool
    ) -> DBusPropertiesWriter {
        let entries = GetAllEntries(table)
        let memo = SnapshotMemo()
        return DBusPropertiesWriter({ [weak self] map in
            guard let self else { return map.fail(DBusError(.unknownObject, "the player is gone")) }
            let position = entries.readsPosition ? livePosition() : 0
            state.withLock { state in
                entries.write(state, position: position, to: &map)
            }
        }, snapshot: { [weak self] () -> GetAllSnapshot? in
            guard let self else { return nil }
            let position = entries.readsPosition ? livePosition() : 0
            return state.withLock { state in memo.snapshot(of: state, position: position, same: same) }
        }, writeSnapshot: { snapshot, map in
            entries.write(snapshot.state, position: snapshot.position, to: &map)
        })
    }
}

/// The values one GetAll reply was written from.
final class GetAllSnapshot: Sendable {
    let state: MPRISState
    let position: Microseconds

    init(state: MPRISState, position: Microseconds) {
        self.state = state
        self.position = position
    }
}

/// The last snapshot of one interface's values, handed out again while they are unchanged.
private final class SnapshotMemo: Sendable {
    private struct Memo {
        var snapshot: GetAllSnapshot?
        /// The position the last GetAll read.
        var position: Microseconds?
    }

    private let memo = Mutex(Memo())

    /// The last snapshot if `state` (as `same` compares it) and `position` are what it holds; a
    /// new one if only the state changed; nil while the position moves (playing): its replies
    /// would never be reused, so none are kept. Called with the state lock held.
    func snapshot(
        of state: MPRISState, position: Microseconds, same: (MPRISState, MPRISState) -> Bool
    ) -> GetAllSnapshot? {
        memo.withLock { memo in
            if let last = memo.snapshot, last.position == position, same(last.state, state) { return last }
            guard memo.position == position else {
                memo = Memo(snapshot: nil, position: position)
                return nil
            }
            let fresh = GetAllSnapshot(state: state, position: position)
            memo.snapshot = fresh
            return fresh
        }
    }
}

/// The readable properties of one table as GetAll writes them, prepared once: names, variant
/// signatures and writers kept side by side in one object, so writing a reply copies no
/// ``PropertySpec`` (each copy cost its fields' retains and releases).
private final class GetAllEntries: Sendable {
    private let names: [MemberName]
    private let signatures: [DBusSignatureText]
    private let writers: [@Sendable (MPRISState, inout DBusMessageWriter) -> Void]
    /// Index of `Position`, written from the value read before the lock.
    private let positionIndex: Int?

    init(_ table: [PropertySpec]) {
        let readable = table.filter { $0.access != .write }
        names = readable.map(\.name)
        signatures = readable.map { DBusSignatureText($0.type) }
        writers = readable.map(\.write)
        positionIndex = readable.firstIndex { $0.name == "Position" }
    }

    var readsPosition: Bool { positionIndex != nil }

    func write(_ state: MPRISState, position: Microseconds, to map: inout DBusMessageWriter) {
        for index in names.indices where map.isWriting {
            map.appendEntry(names[index], variantOf: signatures[index]) { value in
                if index == positionIndex {
                    value.append(position)
                } else {
                    writers[index](state, &value)
                }
            }
        }
    }
}
