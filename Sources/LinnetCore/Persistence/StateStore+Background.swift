extension StateStore where Value: Codable {
    /// Saves what `snapshot` returns when the write runs, on this store's own queue: the caller
    /// never waits for the disk, and changes that come faster than the disk are written
    /// together (see ``BackgroundWriter``). `onFailure` hears why a write failed; the previous
    /// file then stays intact.
    public func saveInBackground(
        _ snapshot: @escaping @Sendable () -> Value, onFailure: @escaping @Sendable (any Error) -> Void
    ) {
        writer.submit { [self] in
            do {
                try save(snapshot())
                return true
            } catch {
                onFailure(error)
                return false
            }
        }
    }

    /// Returns once every background save asked for before the call is on disk (or failed).
    public func backgroundSavesSettled() async {
        await writer.settled()
    }

    /// Blocks until the background saves asked for so far are done (linnet is exiting);
    /// whether the last of them succeeded (true if none was made).
    public func finishBackgroundSaves() -> Bool {
        writer.finish()
    }
}
