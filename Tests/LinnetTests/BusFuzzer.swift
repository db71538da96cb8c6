import DBus
import Foundation
import MPRIS
import TestSupport

/// Sends the calls and checks the invariants.
struct BusFuzzer {
    let world: LinnetWorld
    var factory: ValueFactory
    let files: [String]
    let bogusFiles: [String]
    /// An M3U of the real files, for Pomodoro `music`.
    let playlistPath: String
    var report = FuzzReport()
    var playlistIDs: [ObjectPath] = []
    var clockState = ClockFuzzState()
    /// The last calls sent, printed when linnet dies: the trigger is among them.
    private(set) var recent: [String] = []

    init(world: LinnetWorld, seed: UInt64, files: [String], bogusFiles: [String], playlistPath: String) {
        self.world = world
        self.files = files
        self.bogusFiles = bogusFiles
        self.playlistPath = playlistPath
        factory = ValueFactory(rng: FuzzRNG(seed: seed), realFiles: files)
    }

    /// Errors a correct service may answer when the call alone does not decide which.
    static let documentedErrors: Set<ErrorName> = [
        .invalidArgs, .notSupported, .limitsExceeded, .unknownMethod, .unknownObject, .unknownInterface,
        .unknownProperty, .propertyReadOnly, .accessDenied, .invalidSignature, "io.linnet.Linnet1.Error.NoPomodoro",
    ]

    /// `LINNET_FUZZ_TRACE=1` prints every call before it is sent, to find the one that kills a run.
    static let trace = ProcessInfo.processInfo.environment["LINNET_FUZZ_TRACE"] != nil
    static let recentLimit = 40

    /// One step of the client: a hostile call, a valid MPRIS command, a clock call, or now and
    /// then a burst of calls sent together without waiting for each answer.
    mutating func sendOne() async {
        if factory.rng.chance(0.03) {
            await sendTogether(clockBurst())
            return
        }
        let roll = Int.random(in: 0..<100, using: &factory.rng)
        let call = roll < 30 ? hostileCall() : roll < 55 ? validCommand() : clockCall()
        await send(call)
    }

    private mutating func send(_ call: FuzzCall) async {
        guard admit(call) else { return }
        let result = await Self.perform(call, on: world)
        await record(call, result)
    }

    /// Sends `calls` at once (pipelined on one connection, as a client firing requests does)
    /// and checks every answer.
    private mutating func sendTogether(_ calls: [FuzzCall]) async {
        let admitted = calls.filter { admit($0) }
        report.bursts += 1
        let world = self.world
        let results = await withTaskGroup(of: (Int, Result<[DBusValue], DBusError>).self) { group in
            for (index, call) in admitted.enumerated() {
                group.addTask { (index, await Self.perform(call, on: world)) }
            }
            var results = [Result<[DBusValue], DBusError>?](repeating: nil, count: admitted.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
        for (call, result) in zip(admitted, results) { await record(call, result!) }
    }

    /// Counts `call` as sent unless our own library would refuse it: such values never reach
    /// the bus.
    private mutating func admit(_ call: FuzzCall) -> Bool {
        do {
            for argument in call.arguments { try argument.validate() }
            // A whole body's signature is limited to 255 bytes too; the library refuses longer ones.
            guard call.arguments.reduce(0, { $0 + $1.type.signature.utf8.count }) <= 255 else {
                throw DBusError(.limitsExceeded, "body signature too long")
            }
        } catch {
            report.refusedLocally += 1
            return false
        }
        report.sent += 1
        let line = "\(report.sent): \(describe(call))"
        recent.append(line)
        if recent.count > Self.recentLimit { recent.removeFirst() }
        if Self.trace { FileHandle.standardError.write(Data("BusFuzz call \(line)\n".utf8)) }
        return true
    }

    private static func perform(_ call: FuzzCall, on world: LinnetWorld) async -> Result<[DBusValue], DBusError> {
        do {
            return .success(try await world.client.call(
                destination: LinnetWorld.playerName, path: call.path, interface: call.interface, member: call.member,
                arguments: call.arguments, timeout: BusFuzzTests.callTimeout))
        } catch {
            return .failure(error)
        }
    }

    /// Every call must be answered: a reply, or a D-Bus error the call deserves.
    private mutating func record(_ call: FuzzCall, _ result: Result<[DBusValue], DBusError>) async {
        switch result {
        case .success(let reply):
            report.successes += 1
            noteReply(to: call, reply)
            if let expected = call.expectedError {
                report.wrongAnswers.append("\(describe(call)) succeeded, expected \(expected)")
            }
        case .failure(let error):
            report.errors[error.name.rawValue, default: 0] += 1
            if error.name == .noReply || error.name == .timeout {
                if await !linnetIsAlive(settle: true) {
                    report.crashes += 1
                    report.stop("linnet died during \(describe(call))")
                } else {
                    report.hangs += 1
                    report.fail("no reply to \(describe(call)): \(error.message)")
                }
            } else if error.name == .disconnected || error.name == .serviceUnknown || error.name == .nameHasNoOwner {
                report.crashes += await linnetIsAlive(settle: true) ? 0 : 1
                report.stop("\(error) during \(describe(call))")
            } else if let expected = call.expectedError {
                // Caps are checked before types: an invalid call that is also over a cap (a wrong
                // type holding a string of more than 8 KiB) is answered LimitsExceeded.
                let capped = expected == .invalidArgs && error.name == .limitsExceeded
                if error.name != expected && !capped {
                    report.wrongAnswers.append("\(describe(call)) -> \(error.name) (\(error.message.prefix(120))), expected \(expected)")
                }
            } else if !Self.documentedErrors.contains(error.name) {
                report.wrongAnswers.append("\(describe(call)) -> \(error.name): \(error.message.prefix(160))")
            }
        }
    }

    /// Whether linnet still runs. A process that just died may still look alive to `Process` for
    /// a moment (its exit is noticed asynchronously) while the bus already answers NoReply: a
    /// dead or zombie entry in /proc counts as dead, and after a NoReply (`settle`) the check
    /// gives the exit a second to show.
    func linnetIsAlive(settle: Bool = false) async -> Bool {
        guard let process = world.process else { return false }
        for attempt in 0..<(settle ? 20 : 1) {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(50)) }
            guard process.isRunning, let state = Self.procState(process.processIdentifier), state != "Z", state != "X" else {
                return false
            }
        }
        return true
    }

    /// The state letter in /proc/<pid>/stat (R, S, Z, …), nil when there is no such process.
    static func procState(_ pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].first { $0 != " " }
    }

    func describe(_ call: FuzzCall) -> String {
        let signature = call.arguments.map(\.type.signature).joined()
        var text = "[\(call.kind)] \(call.path) \(call.interface?.rawValue ?? "-").\(call.member)(\(signature.prefix(60)))"
        if call.kind == "clock" || call.kind == "valid" {
            text += " " + call.arguments.map(Self.brief).joined(separator: ", ")
        }
        return text
    }

    /// A value short enough for a log line.
    static func brief(_ value: DBusValue) -> String {
        switch value {
        case .string(let text): text.count > 40 ? "<\(text.count) chars>" : "\"\(text)\""
        case .variant(let inner): brief(inner)
        case .dictionary(_, _, let entries):
            "{" + entries.prefix(8).map { "\(brief($0.key)): \(brief($0.value))" }.joined(separator: ", ") + "}"
        case .array(_, let items): "[\(items.count) items]"
        default: "\(value)".prefix(40).description
        }
    }

    // MARK: Invariants

    /// After a batch: alive, answers Ping, valid PlaybackStatus, Metadata's track in the list.
    mutating func checkInvariants(pid: Int32) async {
        report.batches += 1
        guard await linnetIsAlive() else {
            report.crashes += 1
            report.stop("linnet is not running after batch \(report.batches); log:\n\(world.log.suffix(3000))")
            return
        }
        do {
            _ = try await world.client.call(
                destination: LinnetWorld.playerName, path: MPRISNames.objectPath, interface: .peer, member: "Ping",
                timeout: BusFuzzTests.callTimeout)
        } catch {
            report.hangs += 1
            report.stop("Ping after batch \(report.batches): \(error)")
            return
        }
        // Linnet changes state on its own (end of track, a playlist loading), so a mismatch must
        // persist across a few reads before it counts.
        var problem: String?
        for attempt in 0..<5 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(100)) }
            do {
                problem = try await consistencyProblem()
            } catch {
                problem = "reading state failed: \(error)"
            }
            if problem == nil { break }
        }
        if let problem { report.fail("after batch \(report.batches): \(problem)") }
        if playlistIDs.isEmpty, let reply = try? await world.proxy(MPRISNames.playlists).call(
            "GetPlaylists", [.uint32(0), .uint32(10), .string("Alphabetical"), .boolean(false)]),
            case .array(_, let entries)? = reply.first {
            playlistIDs = entries.compactMap { entry in
                if case .structure(let fields) = entry, case .objectPath(let id)? = fields.first { return id }
                return nil
            }
        }
    }

    /// At the end: linnet runs and answers a Ping and a Get on MPRIS and on Linnet1, so the run
    /// cannot pass with a daemon that died (or stopped answering) after the last batch.
    mutating func checkFinalRoundTrip() async {
        guard await linnetIsAlive() else {
            report.crashes += 1
            report.stop("linnet is not running at the end; log:\n\(world.log.suffix(3000))")
            return
        }
        do {
            _ = try await world.client.call(
                destination: LinnetWorld.playerName, path: MPRISNames.objectPath, interface: .peer, member: "Ping",
                timeout: BusFuzzTests.callTimeout)
            let status = try await world.player("PlaybackStatus")
            guard case .string(let text) = status, ["Playing", "Paused", "Stopped"].contains(text) else {
                report.fail("PlaybackStatus at the end is \(status)")
                return
            }
            let clock = DBusProxy(connection: world.client, destination: LinnetWorld.playerName, path: MPRISNames.objectPath,
                                  interface: Self.linnet)
            guard case .dictionary? = try await clock.call("GetStatus", timeout: BusFuzzTests.callTimeout).first else {
                report.fail("GetStatus at the end answered no a{sv}")
                return
            }
        } catch {
            report.hangs += 1
            report.fail("the final round trip failed: \(error)")
        }
    }

    private mutating func consistencyProblem() async throws -> String? {
        let status = try await world.player("PlaybackStatus")
        guard case .string(let text) = status, ["Playing", "Paused", "Stopped"].contains(text) else {
            return "PlaybackStatus is \(status)"
        }
        let metadata = try await world.player("Metadata")
        let tracksValue = try await world.proxy(MPRISNames.trackList).property("Tracks")
        guard case .array(.objectPath, let entries) = tracksValue else { return "Tracks is \(tracksValue)" }
        let tracks = entries.compactMap { if case .objectPath(let id) = $0 { id } else { nil } }
        factory.knownTracks = tracks
        let current: ObjectPath? = if case .objectPath(let id)? = metadata["mpris:trackid"] { id } else { nil }
        // A ringing alarm (AddAlarm is fuzzed too) shows as the current track, playing, unqueued.
        if let current, current.rawValue.hasPrefix("/org/linnet/alarm/") { return nil }
        if tracks.isEmpty {
            guard current == nil || current == TrackID.noTrack.path else {
                return "the queue is empty but Metadata names \(current!)"
            }
            guard text == "Stopped" else { return "the queue is empty but PlaybackStatus is \(text)" }
            return nil
        }
        guard let current, tracks.contains(current) else {
            return "Metadata's track \(current?.rawValue ?? "none") is not in Tracks \(tracks.map(\.rawValue))"
        }
        return nil
    }
}
