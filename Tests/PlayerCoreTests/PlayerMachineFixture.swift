@testable import PlayerCore

/// A machine started on `uris`, and helpers to read what it asked for.
struct MachineFixture {
    var machine: PlayerMachine
    /// Every effect since the fixture was made, in order.
    private(set) var log: [PlayerEffect] = []

    init(uris: [String], autoplay: Bool = false, settings: PlayerMachine.Settings = PlayerMachine.Settings()) {
        machine = PlayerMachine(settings: settings, queueSeed: 7)
        let tracks = uris.map { NewTrack(uri: $0) }
        log = machine.handle(.start(PlayerStartup(tracks: tracks, autoplay: autoplay)))
    }

    /// Handles `input` and returns its effects (also kept in ``log``).
    @discardableResult
    mutating func send(_ input: PlayerInput) -> [PlayerEffect] {
        let effects = machine.handle(input)
        log += effects
        return effects
    }

    /// Shorthand for a user's command.
    @discardableResult
    mutating func command(_ command: PlayerCommand) -> [PlayerEffect] {
        send(.command(command))
    }

    /// The entry id at `index` of the queue.
    func id(_ index: Int) -> UInt64 { machine.queue.entries[index].id }

    /// The last snapshot published in `effects`.
    static func lastSnapshot(_ effects: [PlayerEffect]) -> PlayerSnapshot? {
        effects.compactMap { effect -> PlayerSnapshot? in
            if case .publish(let snapshot, _, _) = effect { return snapshot }
            return nil
        }.last
    }

    /// The engine commands in `effects`, in order.
    static func engineCommands(_ effects: [PlayerEffect]) -> [EngineCommand] {
        effects.compactMap { effect -> EngineCommand? in
            if case .engine(let command) = effect { return command }
            return nil
        }
    }

    /// The clock requests in `effects`.
    static func clockRequests(_ effects: [PlayerEffect]) -> [ClockRequest] {
        effects.compactMap { effect -> ClockRequest? in
            if case .clock(let request) = effect { return request }
            return nil
        }
    }
}
