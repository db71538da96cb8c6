import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Bad input on the bus: the real daemon takes randomised calls — random members, signatures
/// and values on every interface, hostile paths and interfaces, and random runs of valid
/// commands — and after every batch must still answer Ping, stay alive, publish a consistent
/// PlaybackStatus/Metadata/Tracks and keep its memory bounded. Every reply must be a success or
/// a properly named D-Bus error. `LINNET_FUZZ_SECONDS` and `LINNET_FUZZ_SEED` override the
/// CI budget and the seed; the seed is printed so a failure replays exactly.
@Suite(.serialized) struct BusFuzzTests {
    static let defaultSeed: UInt64 = 0x11AE_7F05_2025
    static let batchSize = 50
    static let callTimeout: Duration = .seconds(10)
    static let rssLimitKB = 300 * 1024

    @Test(.timeLimit(.minutes(30))) func busFuzz() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["LINNET_FUZZ_SECONDS"].flatMap(Double.init) ?? 15
        let seed = environment["LINNET_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        print("BusFuzz: seed \(seed), budget \(seconds) s (LINNET_FUZZ_SEED=\(seed) replays this run)")

        let world = try LinnetWorld()
        let files = try await [
            world.makeTrack("f1.ogg", title: "Fuzz One", seconds: 2),
            world.makeTrack("f2.ogg", title: "Fuzz Two", seconds: 2),
            world.makeTrack("f3.ogg", title: "Fuzz Three", seconds: 2),
        ]
        // A file that is not audio at all, for the "bogus" half of OpenUri/AddTrack.
        let broken = world.media.appendingPathComponent("broken.ogg").path
        try Data("this is not an ogg file".utf8).write(to: URL(fileURLWithPath: broken))
        let playlists = world.home.appendingPathComponent("data/linnet/playlists")
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        try (files.joined(separator: "\n") + "\n").write(
            to: playlists.appendingPathComponent("fuzz.m3u"), atomically: true, encoding: .utf8)
        try await world.start(["--no-resume"] + files)
        guard let pid = world.process?.processIdentifier else { throw TestSupportError("linnet did not start") }

        var fuzzer = BusFuzzer(world: world, seed: seed, files: files, bogusFiles: [broken, world.media.path])
        let deadline = ContinuousClock.now + .seconds(seconds)
        var peakRSS = 0
        var rssSamples: [Int] = []
        while ContinuousClock.now < deadline, fuzzer.report.failures.isEmpty {
            // Stop at the first failure: once linnet is gone every further call fails the same way.
            for _ in 0..<Self.batchSize where fuzzer.report.failures.isEmpty { await fuzzer.sendOne() }
            await fuzzer.checkInvariants(pid: pid)
            let rss = Self.residentKB(pid) ?? 0
            peakRSS = max(peakRSS, rss)
            rssSamples.append(rss)
            if rss > Self.rssLimitKB { fuzzer.report.fail("RSS \(rss) kB over \(Self.rssLimitKB) kB") }
        }
        // Growth check: the last quarter of the run may not sit far above the first quarter.
        if rssSamples.count >= 8 {
            let quarter = rssSamples.count / 4
            let early = rssSamples[quarter..<(2 * quarter)].max() ?? 0
            let late = rssSamples.suffix(quarter).min() ?? 0
            print("BusFuzz: RSS early \(early) kB, late \(late) kB")
            // Caches may fill once; steady growth past that is a leak.
            if late > early + 100 * 1024 { fuzzer.report.fail("RSS grew from \(early) kB to \(late) kB") }
        }
        let report = fuzzer.report
        let errors = report.errors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        print("""
            BusFuzz report: seed \(seed), calls sent \(report.sent), successes \(report.successes), \
            refused by the client \(report.refusedLocally), errors by name [\(errors)], \
            crashes \(report.crashes), hangs \(report.hangs), wrong answers \(report.wrongAnswers.count), \
            batches \(report.batches), peak RSS \(peakRSS / 1024) MB
            """)
        for line in report.wrongAnswers.prefix(20) { print("BusFuzz wrong answer: \(line)") }
        for line in report.failures.prefix(20) { print("BusFuzz failure: \(line)") }
        if let process = world.process, !process.isRunning {
            print("BusFuzz: linnet exited: reason \(process.terminationReason.rawValue) status \(process.terminationStatus)")
        }
        if !report.failures.isEmpty {
            let lines = world.log.split(separator: "\n").filter { !$0.contains("debug") }
            print("BusFuzz: linnet's log ends:\n" + lines.suffix(40).joined(separator: "\n"))
        }
        #expect(report.crashes == 0)
        #expect(report.hangs == 0)
        #expect(report.wrongAnswers.isEmpty, "\(report.wrongAnswers.prefix(5))")
        #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
        #expect(report.sent > 0)
        world.kill()
    }

    /// VmRSS of `pid` in kB.
    static func residentKB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}

/// Counts of what happened, for the report and the assertions.
struct FuzzReport {
    var sent = 0
    var successes = 0
    var refusedLocally = 0
    var errors: [String: Int] = [:]
    var crashes = 0
    var hangs = 0
    var batches = 0
    var wrongAnswers: [String] = []
    var failures: [String] = []

    mutating func fail(_ reason: String) { failures.append(reason) }
}

/// Sends the calls and checks the invariants.
struct BusFuzzer {
    let world: LinnetWorld
    var factory: ValueFactory
    let files: [String]
    let bogusFiles: [String]
    var report = FuzzReport()
    var playlistIDs: [ObjectPath] = []

    init(world: LinnetWorld, seed: UInt64, files: [String], bogusFiles: [String]) {
        self.world = world
        self.files = files
        self.bogusFiles = bogusFiles
        factory = ValueFactory(rng: FuzzRNG(seed: seed), realFiles: files)
    }

    /// Errors a correct service may answer when the call alone does not decide which.
    static let documentedErrors: Set<ErrorName> = [
        .invalidArgs, .notSupported, .limitsExceeded, .unknownMethod, .unknownObject, .unknownInterface,
        .unknownProperty, .propertyReadOnly, .accessDenied, .invalidSignature, "io.linnet.Linnet1.Error.NoPomodoro",
    ]

    /// `LINNET_FUZZ_TRACE=1` prints every call before it is sent, to find the one that kills a run.
    static let trace = ProcessInfo.processInfo.environment["LINNET_FUZZ_TRACE"] != nil

    mutating func sendOne() async {
        let call = factory.rng.chance(0.35) ? validCommand() : hostileCall()
        await send(call)
    }

    private mutating func send(_ call: FuzzCall) async {
        do {
            for argument in call.arguments { try argument.validate() }
            // A whole body's signature is limited to 255 bytes too; the library refuses longer ones.
            guard call.arguments.reduce(0, { $0 + $1.type.signature.utf8.count }) <= 255 else {
                throw DBusError(.limitsExceeded, "body signature too long")
            }
        } catch {
            // Our own library refuses values libdbus would abort on: they never reach the bus.
            report.refusedLocally += 1
            return
        }
        report.sent += 1
        if Self.trace { FileHandle.standardError.write(Data("BusFuzz call \(report.sent): \(describe(call))\n".utf8)) }
        do {
            _ = try await world.client.call(
                destination: LinnetWorld.playerName, path: call.path, interface: call.interface, member: call.member,
                arguments: call.arguments, timeout: BusFuzzTests.callTimeout)
            report.successes += 1
            if let expected = call.expectedError {
                report.wrongAnswers.append("\(describe(call)) succeeded, expected \(expected)")
            }
        } catch {
            report.errors[error.name.rawValue, default: 0] += 1
            if error.name == .noReply || error.name == .timeout {
                if world.process?.isRunning == false {
                    report.crashes += 1
                    report.fail("linnet died during \(describe(call))")
                } else {
                    report.hangs += 1
                    report.fail("no reply to \(describe(call)): \(error.message)")
                }
            } else if error.name == .disconnected || error.name == .serviceUnknown || error.name == .nameHasNoOwner {
                report.crashes += world.process?.isRunning == false ? 1 : 0
                report.fail("\(error) during \(describe(call))")
            } else if let expected = call.expectedError {
                if error.name != expected {
                    report.wrongAnswers.append("\(describe(call)) -> \(error.name) (\(error.message.prefix(120))), expected \(expected)")
                }
            } else if !Self.documentedErrors.contains(error.name) {
                report.wrongAnswers.append("\(describe(call)) -> \(error.name): \(error.message.prefix(160))")
            }
        }
    }

    private func describe(_ call: FuzzCall) -> String {
        let signature = call.arguments.map(\.type.signature).joined()
        return "[\(call.kind)] \(call.path) \(call.interface?.rawValue ?? "-").\(call.member)(\(signature.prefix(60)))"
    }

    // MARK: Calls

    private mutating func hostileCall() -> FuzzCall {
        let roll = Int.random(in: 0..<100, using: &factory.rng)
        let path = MPRISNames.objectPath
        switch roll {
        case 0..<35:
            // A member (known or not) of an MPRIS interface with random arguments.
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            return aimed(path: path, interface: interface, noInterface: false)
        case 35..<45:
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            return aimed(path: path, interface: interface, noInterface: true)
        case 45..<50:
            return FuzzCall(path: path, interface: factory.rng.pick(FuzzTargets.bogusInterfaces),
                            member: factory.rng.pick(["Play", "Get", "Frobnicate"]), arguments: factory.arguments(),
                            expectedError: .unknownInterface, kind: "unknown-interface")
        case 50..<55:
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            let member = factory.rng.pick(Array(FuzzTargets.methods[interface]!.keys).sorted())
            return FuzzCall(path: factory.rng.pick(FuzzTargets.bogusPaths), interface: interface,
                            member: MemberName(rawValue: member)!, arguments: factory.arguments(),
                            expectedError: .unknownObject, kind: "unknown-path")
        case 55..<85:
            return propertiesCall()
        case 85..<92:
            let target: ObjectPath = factory.rng.pick(["/", "/org", "/org/mpris", path] + FuzzTargets.bogusPaths)
            let member: MemberName = factory.rng.chance(0.8) ? "Introspect" : "Introspection"
            let arguments = factory.rng.chance(0.8) ? [] : factory.arguments()
            let expected: ErrorName? = if member != "Introspect" {
                .unknownMethod
            } else if !arguments.isEmpty {
                .invalidArgs
            } else if ["/", "/org", "/org/mpris", path].contains(target) {
                nil
            } else {
                .unknownObject
            }
            return FuzzCall(path: target, interface: .introspectable, member: member, arguments: arguments,
                            expectedError: expected, kind: "introspect")
        default:
            // libdbus answers Peer itself, on any path; any named answer is fine.
            let member: MemberName = factory.rng.pick(["Ping", "GetMachineId", "Pong"])
            return FuzzCall(path: factory.rng.chance(0.5) ? path : factory.objectPath(), interface: .peer,
                            member: member, arguments: factory.rng.chance(0.7) ? [] : factory.arguments(),
                            expectedError: nil, kind: "peer")
        }
    }

    /// A call to `interface` at the MPRIS path: a declared member with random (sometimes right)
    /// arguments, or an undeclared one.
    private mutating func aimed(path: ObjectPath, interface: InterfaceName, noInterface: Bool) -> FuzzCall {
        let declared = FuzzTargets.methods[interface]!
        let known = factory.rng.chance(0.8)
        let member = known
            ? MemberName(rawValue: factory.rng.pick(Array(declared.keys).sorted()))!
            : factory.rng.pick(FuzzTargets.bogusMembers)
        var arguments: [DBusValue]
        if known, factory.rng.chance(0.4), let signature = declared[member.rawValue],
            let types = DBusSignature(rawValue: signature)?.types {
            arguments = types.map { factory.value(of: $0) }
        } else {
            arguments = factory.arguments()
        }
        // Quit with the right signature would end the run; keep it to the wrong-signature case.
        if member == "Quit", arguments.isEmpty { arguments = [.int32(0)] }
        let signature = arguments.map(\.type.signature).joined()
        let expected: ErrorName? = if !known {
            .unknownMethod
        } else if declared[member.rawValue] != signature {
            .invalidArgs
        } else {
            nil
        }
        return FuzzCall(path: path, interface: noInterface ? nil : interface, member: member, arguments: arguments,
                        expectedError: expected, kind: noInterface ? "no-interface" : "member")
    }

    private mutating func propertiesCall() -> FuzzCall {
        let path = MPRISNames.objectPath
        let interfaces = Array(FuzzTargets.properties.keys).sorted()
        let interface = factory.rng.chance(0.9) ? factory.rng.pick(interfaces) : factory.rng.pick(FuzzTargets.bogusInterfaces)
        let declared = FuzzTargets.properties[interface] ?? [:]
        let knownName = factory.rng.chance(0.85) && !declared.isEmpty
        let name = knownName ? factory.rng.pick(Array(declared.keys).sorted()) : factory.rng.pick(["Nope", "", "volume", "Rate "])
        let property = declared[name]
        func make(_ member: MemberName, _ arguments: [DBusValue], _ expected: ErrorName?) -> FuzzCall {
            FuzzCall(path: path, interface: .properties, member: member, arguments: arguments,
                     expectedError: expected, kind: "properties")
        }
        let missing: ErrorName = FuzzTargets.properties[interface] == nil ? .unknownInterface : .unknownProperty
        switch Int.random(in: 0..<10, using: &factory.rng) {
        case 0..<3:
            return make("Get", [.string(interface.rawValue), .string(name)], property == nil ? missing : nil)
        case 3:
            let expected: ErrorName? = FuzzTargets.properties[interface] == nil ? .unknownInterface : nil
            return make("GetAll", [.string(interface.rawValue)], expected)
        case 4..<9:
            // Set with the right type half the time, a random one otherwise.
            let rightType = property.flatMap { try? DBusType(parsing: $0.type) }
            let valueType = (rightType != nil && factory.rng.chance(0.5)) ? rightType! : factory.type()
            let value = factory.value(of: valueType)
            let expected: ErrorName? = if let property {
                !property.writable ? .propertyReadOnly : (valueType != rightType ? .invalidArgs : nil)
            } else {
                missing
            }
            return make("Set", [.string(interface.rawValue), .string(name), .variant(value)], expected)
        default:
            let member: MemberName = factory.rng.pick(["Get", "GetAll", "Set", "Sett"])
            let arguments = factory.arguments()
            let signature = arguments.map(\.type.signature).joined()
            let right = ["Get": "ss", "GetAll": "s", "Set": "ssv"][member.rawValue]
            let expected: ErrorName? = if right == nil {
                .unknownMethod
            } else if right != signature {
                .invalidArgs
            } else {
                nil
            }
            return make(member, arguments, expected)
        }
    }

    /// One valid command with plausible arguments.
    private mutating func validCommand() -> FuzzCall {
        let path = MPRISNames.objectPath
        let tracks = factory.knownTracks
        func player(_ member: MemberName, _ arguments: [DBusValue] = []) -> FuzzCall {
            FuzzCall(path: path, interface: MPRISNames.player, member: member, arguments: arguments, expectedError: nil, kind: "valid")
        }
        func trackList(_ member: MemberName, _ arguments: [DBusValue]) -> FuzzCall {
            FuzzCall(path: path, interface: MPRISNames.trackList, member: member, arguments: arguments, expectedError: nil, kind: "valid")
        }
        func set(_ name: String, _ value: DBusValue) -> FuzzCall {
            FuzzCall(path: path, interface: .properties, member: "Set",
                     arguments: [.string(MPRISNames.player.rawValue), .string(name), .variant(value)],
                     expectedError: nil, kind: "valid")
        }
        let someTrack: ObjectPath = tracks.isEmpty ? TrackID.noTrack.path : factory.rng.pick(tracks)
        let file = factory.rng.chance(0.8) ? factory.rng.pick(files) : factory.rng.pick(bogusFiles)
        let uri = URL(fileURLWithPath: file).absoluteString
        switch Int.random(in: 0..<19, using: &factory.rng) {
        case 0: return player("Play")
        case 1: return player("Pause")
        case 2: return player("PlayPause")
        case 3: return player("Stop")
        case 4: return player("Next")
        case 5: return player("Previous")
        case 6: return player("Seek", [.int64(factory.rng.pick([-500_000, 300_000, 1_000_000, .max, .min, 0]))])
        case 7: return player("SetPosition", [.objectPath(someTrack), .int64(Int64.random(in: -1...2_500_000, using: &factory.rng))])
        case 8: return player("OpenUri", [.string(uri)])
        case 9, 10:
            let after: ObjectPath = factory.rng.chance(0.3) ? TrackID.noTrack.path : someTrack
            return trackList("AddTrack", [.string(uri), .objectPath(after), .boolean(factory.rng.chance(0.3))])
        case 11: return trackList("RemoveTrack", [.objectPath(someTrack)])
        case 12: return trackList("GoTo", [.objectPath(someTrack)])
        case 13: return trackList("GetTracksMetadata", [.array(.objectPath, tracks.map { .objectPath($0) })])
        case 14: return set("Volume", .double(Double.random(in: 0...1.5, using: &factory.rng)))
        case 15: return set("Rate", .double(factory.rng.pick([0.5, 1, 1.5, 2])))
        case 16: return set("LoopStatus", .string(factory.rng.pick(["None", "Track", "Playlist"])))
        case 17: return set("Shuffle", .boolean(factory.rng.chance(0.5)))
        default:
            let none: ObjectPath = "/org/linnet/playlist/none"
            let id = playlistIDs.isEmpty ? none : factory.rng.pick(playlistIDs)
            return FuzzCall(path: path, interface: MPRISNames.playlists, member: "ActivatePlaylist",
                            arguments: [.objectPath(id)], expectedError: nil, kind: "valid")
        }
    }

    // MARK: Invariants

    /// After a batch: alive, answers Ping, valid PlaybackStatus, Metadata's track in the list.
    mutating func checkInvariants(pid: Int32) async {
        report.batches += 1
        guard world.process?.isRunning == true else {
            report.crashes += 1
            report.fail("linnet is not running after batch \(report.batches); log:\n\(world.log.suffix(3000))")
            return
        }
        do {
            _ = try await world.client.call(
                destination: LinnetWorld.playerName, path: MPRISNames.objectPath, interface: .peer, member: "Ping",
                timeout: .seconds(5))
        } catch {
            report.hangs += 1
            report.fail("Ping after batch \(report.batches): \(error)")
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
