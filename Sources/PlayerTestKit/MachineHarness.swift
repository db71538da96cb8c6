public import PlayerCore

/// A ``PlayerMachine`` under test: feed it inputs, read what it asked for. No bus, engine or
/// clock is involved, so a rule's test is value in, effects out.
public struct MachineHarness {
    /// The machine.
    public var machine: PlayerMachine
    /// Every effect since the harness was made, in order.
    public private(set) var log: [PlayerEffect] = []

    /// A machine started on `uris` (fresh tracks, not a saved session).
    public init(uris: [String], autoplay: Bool = false, settings: PlayerMachine.Settings = PlayerMachine.Settings(),
                queueSeed: UInt64 = 7) {
        machine = PlayerMachine(settings: settings, queueSeed: queueSeed)
        log = machine.handle(.start(PlayerStartup(tracks: uris.map { NewTrack(uri: $0) }, autoplay: autoplay)))
    }

    /// Handles `input` and returns its effects (also kept in ``log``).
    @discardableResult
    public mutating func send(_ input: PlayerInput) -> [PlayerEffect] {
        let effects = machine.handle(input)
        log += effects
        return effects
    }

    /// Shorthand for a user's command.
    @discardableResult
    public mutating func command(_ command: PlayerCommand) -> [PlayerEffect] {
        send(.command(command))
    }

    /// Shorthand for an engine report.
    @discardableResult
    public mutating func engine(_ report: EngineReport) -> [PlayerEffect] {
        send(.engine(report))
    }

    /// The entry id at `index` of the queue.
    public func id(_ index: Int) -> UInt64 { machine.queue.entries[index].id }

    /// The last snapshot published in `effects`.
    public static func lastSnapshot(_ effects: [PlayerEffect]) -> PlayerSnapshot? {
        effects.compactMap { effect -> PlayerSnapshot? in
            if case .publish(let snapshot, _, _) = effect { return snapshot }
            return nil
        }.last
    }

    /// The engine commands in `effects`, in order.
    public static func engineCommands(_ effects: [PlayerEffect]) -> [EngineCommand] {
        effects.compactMap { effect -> EngineCommand? in
            if case .engine(let command) = effect { return command }
            return nil
        }
    }

    /// The clock requests in `effects`.
    public static func clockRequests(_ effects: [PlayerEffect]) -> [ClockRequest] {
        effects.compactMap { effect -> ClockRequest? in
            if case .clock(let request) = effect { return request }
            return nil
        }
    }
}
