import DBus
import FoundationEssentials
import Glibc
import Logging

/// The focus coordinator's state and decisions, one command at a time. Only `run` drives it, so
/// the actor is never re-entered from outside while a command awaits other players.
actor FocusWorker {
    /// What linnet knows of another player.
    struct Peer {
        var owner: BusName
        var status = "Stopped"
        var volume: Double?
    }

    /// What linnet did to a player and must undo.
    enum Touch: CustomStringConvertible {
        /// Paused by linnet; `acknowledged` once the player itself has reported Paused since.
        case paused(acknowledged: Bool)
        case ducked(original: Double, applied: Double)

        var description: String {
            switch self {
            case .paused: "paused"
            case .ducked(let original, let applied): "ducked from \(Self.level(original)) to \(Self.level(applied))"
            }
        }

        /// A volume as people read it: 0.16, not the 0.16000000000000003 the product gives.
        static func level(_ volume: Double) -> String {
            var text = [CChar](repeating: 0, count: 32)
            _ = withVaList([volume]) { vsnprintf(&text, text.count, "%.3g", $0) }
            return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
    }

    /// linnet gave way to `player`; it resumes if that player stops before the window ends.
    struct Yield {
        var player: BusName
        var token: UInt64
        var window: Task<Void, Never>?
    }

    private let connection: DBusConnection
    private let settings: DesktopSettings
    private let logger: Logger
    private let commands: AsyncStream<FocusCommand>.Continuation
    private let journal: (any FocusJournalStoring)?
    /// What the journal holds now, so unchanged state is not written again.
    private var journaled: Set<FocusJournalEntry> = []
    /// Entries an earlier linnet left whose player did not answer at this start's recovery: kept
    /// in the journal for the next start.
    private var unsettled: Set<FocusJournalEntry> = []
    private var peers: [BusName: Peer] = [:]
    private var held: [FocusPurpose: FocusEffect] = [:]
    private var touched: [BusName: Touch] = [:]
    private var yielded: Yield?
    private var nextToken: UInt64 = 1
    private var interrupt: @Sendable (FocusInterruption) -> Void = { _ in }

    init(connection: DBusConnection, settings: DesktopSettings, logger: Logger,
         commands: AsyncStream<FocusCommand>.Continuation, journal: (any FocusJournalStoring)?) {
        self.connection = connection
        self.settings = settings
        self.logger = logger
        self.commands = commands
        self.journal = journal
    }

    func run(_ stream: AsyncStream<FocusCommand>, interrupt: @escaping @Sendable (FocusInterruption) -> Void) async {
        self.interrupt = interrupt
        for await command in stream {
            await handle(command)
        }
        yielded?.window?.cancel()
    }

    private var effect: FocusEffect { held.values.max() ?? .none }

    private func handle(_ command: FocusCommand) async {
        switch command {
        case .acquire(let purpose, let effect):
            await acquire(purpose, effect)
        case .release(let purpose):
            await release(purpose)
        case .discover:
            await discover()
        case .nameOwnerChanged(let change):
            await ownerChanged(change)
        case .propertiesChanged(let sender, let changed):
            for (name, peer) in peers where peer.owner == sender {
                await apply(changed, to: name)
            }
        case .fetched(let name, let owner, let properties, let initial):
            guard isOther(name, owner: owner) else { return }
            if peers[name]?.owner != owner { peers[name] = Peer(owner: owner) }
            guard initial else {
                await apply(properties, to: name)
                return
            }
            // Playing before linnet looked (linnet may already hold focus: the daemon starts
            // playing while the bus is still being surveyed): not a player the user just started,
            // so it is treated as if it had been there at acquire.
            record(properties, for: name)
            if peers[name]?.status == "Playing", touched[name] == nil, effect != .none {
                await impose(effect, on: [name])
            }
        case .resumeWindowEnded(let token):
            guard yielded?.token == token else { return }
            logger.debug("audio focus: \(yielded?.player.rawValue ?? "?") kept playing; not resuming")
            yielded = nil
        case .barrier(let continuation):
            continuation.resume()
        case .reportYield(let continuation):
            continuation.resume(returning: yielded?.player.rawValue)
        case .report(let continuation):
            continuation.resume(returning: Dictionary(uniqueKeysWithValues: peers.map { ($0.key.rawValue, $0.value.status) }))
        }
    }

    /// Names that are linnet itself are never followed.
    private func isOther(_ name: BusName, owner: BusName?) -> Bool {
        guard name.rawValue.hasPrefix(MPRISPeer.namePrefix), !name.rawValue.hasPrefix(settings.ownNamePrefix) else {
            return false
        }
        return owner == nil || owner != connection.uniqueName
    }

    private func peer(_ name: BusName) -> MPRISPeer {
        MPRISPeer(connection: connection, name: name, timeout: settings.callTimeout)
    }

    // MARK: Requests

    private func acquire(_ purpose: FocusPurpose, _ purposeEffect: FocusEffect) async {
        guard held[purpose] == nil else { return }
        held[purpose] = purposeEffect
        if purpose == .music, let yield = yielded {
            // Playing again by itself (the user pressed Play): the yield is over.
            yield.window?.cancel()
            yielded = nil
        }
        let playing = peers.filter { $0.value.status == "Playing" && touched[$0.key] == nil }.map(\.key)
        await impose(effect, on: playing)
    }

    private func release(_ purpose: FocusPurpose) async {
        guard held.removeValue(forKey: purpose) != nil else { return }
        let remaining = effect
        let undo = touched.filter { _, touch in
            switch touch {
            case .paused: remaining < .pause
            case .ducked: remaining < .duck
            }
        }
        await restore(undo)
    }

    /// Pauses or ducks `names` and remembers how to undo it. What it is about to change is
    /// journaled first: a linnet killed between the journal and the change finds an entry whose
    /// player was never changed, and leaves that player alone (its value is not what was set).
    private func impose(_ effect: FocusEffect, on names: [BusName]) async {
        guard effect != .none, !names.isEmpty else { return }
        let level = settings.duckLevel
        var planned: [BusName: Touch] = [:]
        switch effect {
        case .none:
            return
        case .pause:
            for name in names { planned[name] = .paused(acknowledged: false) }
        case .duck:
            // Each player's own level first: the journal needs the value to put back.
            for (name, original) in await concurrently(names, { try await $0.volume() }) {
                planned[name] = .ducked(original: original, applied: original * level)
            }
        }
        guard !planned.isEmpty else { return }
        persistJournal(adding: planned)
        let plan = planned
        let logger = self.logger
        let results = await concurrently(Array(plan.keys)) { peer -> (touch: Touch, answered: Bool) in
            let touch = plan[peer.name]!
            do {
                switch touch {
                case .paused: try await peer.call("Pause")
                case .ducked(_, let applied): try await peer.setVolume(applied)
                }
            } catch let error as DBusError where error.name == .noReply {
                // No answer in time is not a refusal: a busy player may still pause or duck
                // later. The touch is kept (and stays journaled); undoing it checks first that
                // the player is still Paused, or still at the level linnet set.
                logger.info("audio focus: \(peer.name) did not answer in time; undone later if it took effect")
                return (touch, false)
            }
            return (touch, true)
        }
        for (name, outcome) in results {
            touched[name] = outcome.touch
            guard outcome.answered else { continue }
            // Known now: a quick release must see it before the player's own signal arrives.
            if case .paused = outcome.touch { peers[name]?.status = "Paused" }
            logger.info("audio focus: \(outcome.touch) \(name)")
        }
        // Players that refused were not changed; their planned entries leave the journal.
        persistJournal()
    }

    /// Resumes what linnet paused and puts back volumes it lowered, unless the user has since
    /// changed them.
    private func restore(_ undo: [BusName: Touch]) async {
        guard !undo.isEmpty else { return }
        for name in undo.keys { touched[name] = nil }
        let statuses = peers.mapValues(\.status)
        let resumed = await concurrently(Array(undo.keys)) { peer -> Bool in
            switch undo[peer.name]! {
            case .paused:
                // Stopped or playing again by itself: the user decided; leave it.
                guard statuses[peer.name] == "Paused" else { return false }
                try await peer.call("Play")
                return true
            case .ducked(let original, let applied):
                let now = try await peer.volume()
                guard abs(now - applied) < 0.005 else { return false }
                try await peer.setVolume(original)
                return false
            }
        }
        // linnet's own Play is not another player starting.
        for (name, didResume) in resumed where didResume { peers[name]?.status = "Playing" }
        persistJournal()
    }

    // MARK: The journal

    /// Saves what linnet has changed in other players (``touched``, plus `planned` changes about
    /// to be made) when it differs from what the journal holds. A journal that cannot be written
    /// is logged and focus carries on: the players are still put back at a normal exit.
    private func persistJournal(adding planned: [BusName: Touch] = [:]) {
        guard let journal else { return }
        var entries = unsettled.filter { entry in !touched.keys.contains { $0.rawValue == entry.name } }
        for (name, touch) in touched.merging(planned, uniquingKeysWith: { _, new in new }) {
            guard let owner = peers[name]?.owner else { continue }
            let change: FocusJournalEntry.Change
            switch touch {
            case .paused: change = .paused
            case .ducked(let original, let applied): change = .ducked(original: original, applied: applied)
            }
            entries.insert(FocusJournalEntry(name: name.rawValue, owner: owner.rawValue, change: change))
        }
        guard entries != journaled else { return }
        do {
            try journal.save(entries.sorted { $0.name < $1.name })
            journaled = entries
        } catch {
            logger.warning("audio focus: cannot write the journal (\(error)); a crash now would leave other players changed")
        }
    }

    /// Undoes what an earlier linnet journaled and did not undo (it was killed): each player
    /// still owned by the same connection gets its volume back if it is still the one linnet set,
    /// and plays again if it is still paused. Runs before anything else touches other players, so
    /// a volume linnet lowered is never lowered again from there.
    private func recoverJournal() async {
        guard let journal else { return }
        let left = journal.load()
        guard !left.isEmpty else { return }
        let connection = self.connection
        let restored = await concurrently(left.compactMap { BusName(rawValue: $0.name) }) { peer -> String? in
            guard let entry = left.first(where: { $0.name == peer.name.rawValue }),
                  try await connection.nameOwner(peer.name).rawValue == entry.owner
            else { return "left alone (another player holds the name now)" }
            do {
                switch entry.change {
                case .paused:
                    guard case .string("Paused")? = try await peer.allProperties()["PlaybackStatus"] else {
                        return "left alone (no longer paused)"
                    }
                    try await peer.call("Play")
                    return "resumed"
                case .ducked(let original, let applied):
                    guard abs(try await peer.volume() - applied) < 0.005 else { return "left alone (its volume was changed)" }
                    try await peer.setVolume(original)
                    return "volume put back to \(Touch.level(original))"
                }
            } catch let error as DBusError where error.name == .noReply {
                return nil
            }
        }
        for (name, outcome) in restored {
            logger.info("audio focus: \(name), changed by a linnet that did not exit cleanly: \(outcome ?? "no answer; tried again at the next start")")
        }
        // A player that did not answer in time keeps its entry: the next start tries again (the
        // owner and value checks still guard it). Every other entry is settled.
        let unanswered = Set(restored.filter { $0.1 == nil }.map { $0.0.rawValue })
        unsettled = Set(left.filter { unanswered.contains($0.name) })
        do {
            try journal.save(unsettled.sorted { $0.name < $1.name })
            journaled = unsettled
        } catch {
            logger.warning("audio focus: cannot clear the journal: \(error)")
        }
    }

    // MARK: Bus events

    private func discover() async {
        let names: [BusName]
        do {
            names = try await connection.listNames()
        } catch {
            logger.warning("cannot list the players on the bus: \(error.message)")
            return
        }
        await recoverJournal()
        for name in names where isOther(name, owner: nil) {
            fetch(name, owner: nil, initial: true)
        }
    }

    private func ownerChanged(_ change: NameOwnerChange) async {
        let name = change.name
        if let oldOwner = change.oldOwner, peers[name]?.owner == oldOwner {
            touched[name] = nil
            persistJournal()
            peers[name] = nil
            if yielded?.player == name { endYield(resuming: true) }
        }
        if let owner = change.newOwner, isOther(name, owner: owner) {
            peers[name] = Peer(owner: owner)
            fetch(name, owner: owner, initial: false)
        }
    }

    /// Reads a player's properties without holding up other commands; the result comes back
    /// as a command of its own.
    private nonisolated func fetch(_ name: BusName, owner: BusName?, initial: Bool) {
        let peer = MPRISPeer(connection: connection, name: name, timeout: settings.callTimeout)
        let (commands, connection, logger) = (commands, connection, logger)
        Task {
            do {
                let resolved: BusName
                if let owner { resolved = owner } else { resolved = try await connection.nameOwner(name) }
                let properties = try await peer.allProperties()
                commands.yield(.fetched(name: name, owner: resolved, properties: properties, initial: initial))
            } catch {
                logger.debug("audio focus: cannot read \(name): \(error)")
            }
        }
    }

    /// Updates what is known of `name`'s status and volume.
    private func record(_ properties: [String: DBusValue], for name: BusName) {
        if case .string(let status)? = properties["PlaybackStatus"] { peers[name]?.status = status }
        if case .double(let volume)? = properties["Volume"] { peers[name]?.volume = volume }
    }

    /// Records a change and reacts to a player starting or stopping.
    private func apply(_ properties: [String: DBusValue], to name: BusName) async {
        guard let before = peers[name]?.status else { return }
        record(properties, for: name)
        if properties["PlaybackStatus"] == .string("Paused"), case .paused(false)? = touched[name] {
            touched[name] = .paused(acknowledged: true)
        }
        guard let peer = peers[name], peer.status != before else { return }
        if peer.status == "Playing" {
            await startedPlaying(name)
        } else if yielded?.player == name {
            endYield(resuming: true)
        }
    }

    /// Another player started while linnet holds focus: duck it too, pause it for an alarm, or
    /// give way to it when linnet only plays music under `pause-others`.
    private func startedPlaying(_ name: BusName) async {
        if case .paused(let acknowledged)? = touched[name] {
            // A player reports in order, so Playing after its own Paused is a restart. Playing
            // before it is a report from before linnet's Pause that arrived late (measured with
            // mpv-mpris under load, where its Get still answered Playing too).
            guard acknowledged else {
                peers[name]?.status = "Paused"
                return
            }
            touched[name] = nil
            persistJournal()
        }
        switch effect {
        case .none:
            return
        case .duck:
            guard touched[name] == nil else { return }
            await impose(.duck, on: [name])
        case .pause where held[.alarm] == .pause:
            await impose(.pause, on: [name])
        case .pause:
            beginYield(to: name)
        }
    }

    private func beginYield(to name: BusName) {
        yielded?.window?.cancel()
        // The user chose the other player: what linnet paused stays paused.
        touched = touched.filter { if case .paused = $0.value { false } else { true } }
        persistJournal()
        let token = nextToken
        nextToken += 1
        var window: Task<Void, Never>?
        let duration = settings.resumeWindow
        if duration > .zero {
            let commands = self.commands
            window = Task {
                try? await Task.sleep(for: duration)
                guard !Task.isCancelled else { return }
                commands.yield(.resumeWindowEnded(token: token))
            }
        }
        yielded = Yield(player: name, token: token, window: window)
        interrupt(.yield(to: name.rawValue))
    }

    private func endYield(resuming: Bool) {
        guard let yield = yielded else { return }
        yield.window?.cancel()
        yielded = nil
        if resuming, yield.window != nil { interrupt(.resume) }
    }

    /// Runs `work` on every player at once and collects what succeeded; failures are logged.
    private func concurrently<T: Sendable>(
        _ names: [BusName], _ work: @escaping @Sendable (MPRISPeer) async throws -> T
    ) async -> [(BusName, T)] {
        let peers = names.map(peer)
        let logger = self.logger
        return await withTaskGroup(of: (BusName, T)?.self) { group in
            for peer in peers {
                group.addTask {
                    do {
                        return (peer.name, try await work(peer))
                    } catch {
                        logger.debug("audio focus: \(peer.name) did not answer: \(error)")
                        return nil
                    }
                }
            }
            var results: [(BusName, T)] = []
            for await result in group { if let result { results.append(result) } }
            return results
        }
    }
}
