import DBus

extension MPRISServer {
    /// GetAll's entries for `table` (``DBusInterface/propertiesWriter``): every readable
    /// property in the table's order, written from one reading of the state under one lock,
    /// so a GetAll never mixes two states and costs one lock instead of one per property.
    /// Position is read first and outside the lock, since it may ask the player (which can
    /// publish, taking the lock), exactly as its own writer reads it.
    func writeAll(_ table: [PropertySpec]) -> @Sendable (inout DBusMessageWriter) -> Void {
        let entries = GetAllEntries(table)
        return { [weak self] map in
            guard let self else { return map.fail(DBusError(.unknownObject, "the player is gone")) }
            let position = entries.readsPosition ? livePosition() : 0
            state.withLock { state in
                entries.write(state, position: position, to: &map)
            }
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
