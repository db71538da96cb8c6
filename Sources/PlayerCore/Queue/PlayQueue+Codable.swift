extension PlayQueue {
    private enum CodingKeys: String, CodingKey {
        case entries, currentIndex, repeatMode, nextID, generator, shuffleOrder
    }

    /// Restores a saved queue, shuffle plan, history and generator included.
    ///
    /// A saved state is repaired rather than rejected where that keeps the user's place: the
    /// current index is clamped, the id counter is raised above every id, and a shuffle plan that
    /// does not match the entries is replaced by a fresh round from the current entry.
    /// - Throws: `DecodingError.dataCorrupted` when two entries share an id, or when the
    ///   ids or the counter are so close to `UInt64.max` that fresh ids would run out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let savedEntries = try container.decode([QueueEntry].self, forKey: .entries).sharingFolders()
        let savedIndex = try container.decodeIfPresent(Int.self, forKey: .currentIndex)
        currentID = savedIndex.flatMap { Self.clamp($0, count: savedEntries.count) }.map { savedEntries[$0].id }
        repeatMode = try container.decode(RepeatMode.self, forKey: .repeatMode)
        generator = try container.decode(SeededGenerator.self, forKey: .generator)
        let savedNextID = try container.decode(UInt64.self, forKey: .nextID)
        let largestID = savedEntries.map(\.id).max() ?? 0
        guard largestID < .max - 1, savedNextID < .max else {
            throw DecodingError.dataCorruptedError(
                forKey: .nextID, in: container, debugDescription: "No queue entry id is left to hand out.")
        }
        nextID = max(savedNextID, largestID + 1)
        guard Set(savedEntries.lazy.map(\.id)).count == savedEntries.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .entries, in: container, debugDescription: "Two queue entries share an id.")
        }
        storage = EntrySequence(savedEntries)
        shuffleOrder = try container.decodeIfPresent(ShuffleOrder.self, forKey: .shuffleOrder)
        if let shuffleOrder, !shuffleOrder.isConsistent(withEntries: storage, currentID: currentID) {
            reshuffleFromCurrent()
        }
    }

    /// With this user-info key set to `true`, ``encode(to:)`` writes `entries` as an empty
    /// array: the caller writes the entries itself (``forEachEntry(_:)``), since a coder's
    /// generic tree costs hundreds of bytes per entry of a 100 000-entry queue.
    public static let entriesWrittenApart = CodingUserInfoKey(rawValue: "linnet.PlayQueue.entriesWrittenApart")!

    /// Saves everything needed to continue identically: entries, current entry, repeat mode,
    /// shuffle plan and history, id counter and generator state.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if encoder.userInfo[Self.entriesWrittenApart] as? Bool == true {
            try container.encode([QueueEntry](), forKey: .entries)
        } else {
            try container.encode(storage.array, forKey: .entries)
        }
        try container.encodeIfPresent(currentIndex, forKey: .currentIndex)
        try container.encode(repeatMode, forKey: .repeatMode)
        try container.encode(nextID, forKey: .nextID)
        try container.encode(generator, forKey: .generator)
        try container.encodeIfPresent(shuffleOrder, forKey: .shuffleOrder)
    }
}
