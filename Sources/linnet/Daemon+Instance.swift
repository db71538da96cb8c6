import DBus
import FoundationEssentials
import LinnetCore

extension Daemon {
    /// The outcome of asking to be the session's linnet.
    enum SessionClaim {
        /// This process is the session's linnet and serves `io.linnet.Linnet`.
        case claimed(DesktopApplication)
        /// Another linnet was; it has what was given. Exit with this status.
        case handedOver(Int32)
    }

    /// One claim of `io.linnet.Linnet`, without suspending: nil when another linnet holds it
    /// (``handOverOrClaim(_:)`` then hands over to it).
    func claimOnce(_ connection: DBusConnection) -> SessionClaim? {
        let application = DesktopApplication(connection: connection)
        do {
            if case .claimed = try application.claim() { return .claimed(application) }
            return nil
        } catch {
            StandardError.write("linnet: cannot appear on the bus: \(error)\n")
            return .handedOver(69)
        }
    }

    /// Hands over to the linnet holding `io.linnet.Linnet`, which ``claimOnce(_:)`` found taken.
    /// A holder that goes away in between (killed, quitting) frees the name, so the claim is
    /// tried again, up to 20 claims in all.
    func handOverOrClaim(_ connection: DBusConnection) async -> SessionClaim {
        let attempts = 20
        for attempt in 1...attempts {
            let handOff = HandOff(connection: connection, inputs: options.inputs, enqueue: options.enqueue)
            if case .finished(let status) = await handOff.run() { return .handedOver(status) }
            guard attempt < attempts else { break }
            logger.debug("the linnet holding \(DesktopApplication.busName) went away; claiming it again (\(attempt))")
            // A quitting linnet releases the name after its final save: give it a moment.
            try? await Task.sleep(for: .milliseconds(25 * attempt))
            if let claim = claimOnce(connection) { return claim }
        }
        StandardError.write("linnet: another linnet holds \(DesktopApplication.busName) but does not answer\n")
        return .handedOver(69)
    }

    /// The state folder this process may write, held for its life: its role's own, or a scratch
    /// one when that is held by a linnet on another session bus.
    func claimState(_ role: InstanceRole) -> (directory: String, lock: StateDirectoryLock?, scratch: Bool) {
        let scratchParent = InstanceRole.scratchParent(directories)
        // A scratch folder is named by pid: one that an ended process of the same pid left is
        // cleared before it is taken. Other roles clear them after the name (removeAbandonedScratch).
        if role.kind == .apart { StateDirectoryLock.removeAbandoned(under: scratchParent) }
        let wanted = role.stateDirectory(directories)
        switch StateDirectoryLock.take(wanted) {
        case .held(let lock):
            return (wanted, lock, role.kind == .apart)
        case .unavailable(let reason):
            // Saves will fail there too and say so; the lock protects nothing on such a folder.
            logger.warning("cannot lock the state folder \(wanted) (\(reason))")
            return (wanted, nil, false)
        case .busy:
            StateDirectoryLock.removeAbandoned(under: scratchParent)
            let scratch = scratchParent + "/\(ProcessInfo.processInfo.processIdentifier)"
            logger.warning("another linnet (on another session bus?) uses \(wanted); this one keeps its session in \(scratch) until it ends")
            if case .held(let lock) = StateDirectoryLock.take(scratch) { return (scratch, lock, true) }
            return (scratch, nil, true)
        }
    }

    /// Removes the scratch state of `--new-instance` players that have ended or were killed:
    /// housekeeping, done after the name (a listing, and a lock and removal per folder).
    func removeAbandonedScratch() {
        StateDirectoryLock.removeAbandoned(under: InstanceRole.scratchParent(directories))
    }
}
