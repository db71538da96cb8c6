@testable import PlayerCore
import PlayerTestKit
import Testing

/// Random inputs of every kind, in any order, never break the machine's invariants. Seeded, so a
/// failure names the seed that replays it.
@Suite struct PlayerMachinePropertyTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func invariantsHoldUnderRandomInputs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var machine = PlayerMachine(queueSeed: seed)
        let pool = (0..<6).map { "file:///m/\($0).ogg" } + ["http://radio.example/live"]
        _ = machine.handle(.start(PlayerStartup(tracks: pool.prefix(3).map { NewTrack(uri: $0) }, autoplay: true)))
        for step in 0..<3_000 {
            let input = Self.randomInput(&random, machine: machine, pool: pool)
            let effects = machine.handle(input)
            let context = "seed \(seed), step \(step), input \(input)"
            #expect(machine.queue.entries.count <= machine.settings.maximumQueueLength, "\(context)")
            if machine.transport != .stopped {
                #expect(machine.queue.current != nil, "\(context): a transport with nothing current")
                #expect(machine.loadedEntryID == machine.queue.current?.id || machine.switchPending,
                        "\(context): the engine has another entry than the current one")
            }
            if let next = machine.queuedNextID {
                #expect(machine.queue.entry(id: next) != nil, "\(context): a withdrawn entry is still handed over")
            }
            #expect(machine.tracks.keys.allSatisfy { machine.queue.entry(id: $0) != nil }, "\(context): facts of removed entries")
            // Whatever changed what clients see was published, and the last publication is the truth.
            if let published = MachineHarness.lastSnapshot(effects) {
                #expect(published == machine.snapshot, "\(context)")
            }
            if machine.alarm != nil, case .command(let command) = input,
               [.play, .pause, .playPause, .stop, .next].contains(command) {
                #expect(MachineHarness.engineCommands(effects).isEmpty, "\(context): a ringing alarm let the music be driven")
            }
        }
    }

    private static func randomInput(_ random: inout SeededGenerator, machine: PlayerMachine, pool: [String]) -> PlayerInput {
        let uri = pool[random.next(below: pool.count)]
        let someID = machine.queue.entries.isEmpty ? UInt64(random.next(below: 50))
            : machine.queue.entries[random.next(below: machine.queue.entries.count)].id
        switch random.next(below: 26) {
        case 0: return .command(.play)
        case 1: return .command(.pause)
        case 2: return .command(.playPause)
        case 3: return .command(.stop)
        case 4: return .command(.next)
        case 5: return .command(.previous)
        case 6: return .command(.seek(to: .seconds(random.next(below: 300))))
        case 7: return .command(.add(NewTrack(uri: uri), after: random.next(below: 3) == 0 ? nil : someID, makeCurrent: random.next(below: 2) == 0))
        case 8: return .command(.remove(entryID: someID))
        case 9: return .command(.goTo(entryID: someID))
        case 10: return .command(.setRepeatMode(RepeatMode.allCases[random.next(below: 3)]))
        case 11: return .command(.setShuffle(random.next(below: 2) == 0))
        case 12: return .engine(.aboutToFinish(handsOverNext: random.next(below: 2) == 0))
        case 13: return .engine(.trackStarted(uri: machine.queue.upcoming()?.uri ?? uri))
        case 14: return .engine(.endOfStream)
        case 15: return .engine(.failed(EngineFailure(uri: uri, message: "broken", currentTrackContinues: random.next(below: 2) == 0)))
        case 16: return .engine(.soundServer(random.next(below: 2) == 0 ? .pause : .resume))
        case 17: return .engine(.routeChanged(lostRoute: random.next(below: 2) == 0))
        case 18: return .scanned(entryID: someID, random.next(below: 4) == 0 ? .unreadable("bad") : .read(TrackTags(), duration: .microseconds(1), sidecarLyrics: nil))
        case 19: return .focus(random.next(below: 2) == 0 ? .yield : .resume)
        case 20: return .clock(.alarmStarted(AlarmDisplay(id: 1, label: "A", soundURI: "file:///s.ogg")))
        case 21: return .clock(.alarmEnded)
        case 22: return .clock(random.next(below: 2) == 0 ? .playMusic : .pauseMusic)
        case 23: return .clock(.pomodoro(random.next(below: 2) == 0 ? nil : PomodoroDisplay(title: "Focus")))
        case 24: return .command(.replaceQueue(pool.shuffled(using: &random).prefix(random.next(below: 4)).map { NewTrack(uri: $0) }, playlist: nil))
        default: return .engine(.seekCompleted)
        }
    }
}
