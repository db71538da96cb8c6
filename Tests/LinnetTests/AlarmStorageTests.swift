import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Alarms survive a flood of AddAlarm calls and a damaged alarms.json (issue 16): the file stays
/// small within the caps, every accepted alarm is on disk when AddAlarm answers, and the valid
/// alarms of a file that cannot be loaded are recovered while the file itself is kept aside.
@Suite struct AlarmStorageTests {
    private static func options(_ entries: [(String, DBusValue)]) -> DBusValue { .stringVariantDictionary(entries) }

    private static func alarmsFile(_ world: LinnetWorld) -> URL {
        world.home.appendingPathComponent("state/linnet/alarms.json")
    }

    /// Set-aside copies next to alarms.json.
    private static func setAside(_ world: LinnetWorld) -> [String] {
        let directory = alarmsFile(world).deletingLastPathComponent().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("alarms.json.corrupt-") }
    }

    @Test(.timeLimit(.minutes(5)))
    func aFloodOfMaximalAlarmsStaysSmallAnswersAndSurvivesKill9() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("flood.ogg", title: "Flood", seconds: 30)
        try await world.start(["--no-resume", "--paused", track])
        let total = Int(ProcessInfo.processInfo.environment["LINNET_ALARM_FLOOD_CALLS"] ?? "") ?? 1100
        let label = String(repeating: "L", count: 1024)
        let clock = world.clock
        let started = ContinuousClock.now
        // 32 calls in flight at a time, as a hostile client would pipeline them.
        var accepted: Set<UInt32> = []
        var refusals: [ErrorName: Int] = [:]
        try await withThrowingTaskGroup(of: Result<UInt32, DBusError>.self) { group in
            var sent = 0
            func sendOne() {
                let index = sent
                sent += 1
                group.addTask {
                    do {
                        let reply = try await clock.call("AddAlarm", [.string("+\(2 + index % 20)h"), Self.options([("label", .string(label))])])
                        guard case .uint32(let id)? = reply.first else { throw DBusError(.failed, "no id in \(reply)") }
                        return .success(id)
                    } catch let error as DBusError {
                        return .failure(error)
                    }
                }
            }
            for _ in 0..<min(32, total) { sendOne() }
            for try await result in group {
                switch result {
                case .success(let id): accepted.insert(id)
                case .failure(let error): refusals[error.name, default: 0] += 1
                }
                if sent < total { sendOne() }
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(accepted.count == min(total, 1000))
        #expect(refusals == (total > 1000 ? [.limitsExceeded: total - 1000] : [:]), "\(refusals)")
        let listed = try await world.listedAlarms()
        #expect(Set(listed.map(\.id)) == accepted)
        let size = try FileManager.default.attributesOfItem(atPath: Self.alarmsFile(world).path)[.size] as? Int ?? -1
        #expect(size > 0 && size < 3_000_000, "alarms.json is \(size) bytes")
        print("\(total) AddAlarm calls with 1 KiB labels, 32 in flight: \(accepted.count) accepted, \(refusals) refused in \(elapsed); alarms.json \(size) bytes")

        // Every accepted alarm was on disk when AddAlarm answered: kill -9 loses none.
        world.kill()
        try await world.start(["--no-resume", "--paused", track])
        #expect(Set(try await world.listedAlarms().map(\.id)) == accepted)
        #expect(Self.setAside(world).isEmpty)
        world.kill()
    }

    @Test(.timeLimit(.minutes(2)))
    func aDamagedAlarmsFileIsKeptAsideAndItsValidAlarmsAreRecovered() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("damaged.ogg", title: "Damaged", seconds: 30)
        try await world.start(["--no-resume", "--paused", track])
        for label in ["First", "Second", "Third"] {
            _ = try await world.clock.call("AddAlarm", [.string("+3h"), Self.options([("label", .string(label))])])
        }
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        let file = Self.alarmsFile(world)
        let whole = try Data(contentsOf: file)
        let third = try #require(whole.range(of: Data(#""label":"Third""#.utf8)))

        // Cut short inside the third alarm (a disk that filled, a copy that broke off).
        try whole[..<third.lowerBound].write(to: file)
        try await world.start(["--no-resume", "--paused", track])
        #expect(try await world.listedAlarms().map(\.label) == ["First", "Second"])
        #expect(Self.setAside(world).count == 1)
        #expect(world.log.contains("Recovered 2 alarm(s)"), "\(world.log.suffix(2000))")
        // Recovered alarms are saved again at once, and new ids follow the recovered ones.
        let added = try await world.clock.call("AddAlarm", [.string("+4h"), Self.options([("label", .string("Fourth"))])])
        #expect(added.first == .uint32(3))
        world.kill()

        // Larger than linnet loads whole (the issue's flood left 104.9 MB): its start is read.
        var padded = whole
        padded.append(Data(repeating: UInt8(ascii: " "), count: 65 << 20))
        try padded.write(to: file)
        try await world.start(["--no-resume", "--paused", track])
        #expect(try await world.listedAlarms().map(\.label) == ["First", "Second", "Third"])
        #expect(Self.setAside(world).count == 2)
        world.kill()
    }
}
