import DBus
import EventLoop
import Foundation
import MPRIS
import SystemPackage
import Testing
import TestSupport

/// The built `linnet` binary, run as a user would on a private bus, with its own home and XDG
/// folders and a clock-synced null sink, plus a client that watches it.
final class LinnetWorld: @unchecked Sendable {
    let bus: PrivateBus
    let home: URL
    let media: URL
    let clientLoop = EventLoop(name: "linnet.test.client")
    let client: DBusConnection
    let signals = Recorder<DBusSignal>()
    private var subscription: DBusSubscription?
    private(set) var process: SpawnedProcess?
    private(set) var logFile: URL
    /// Variables added to (or overriding) the environment of the next `start`.
    var extraEnvironment: [String: String] = [:]
    /// Where the next `start` sends linnet's stdout and stderr instead of ``logFile``.
    var outputPipe: Pipe?
    /// A program (and its arguments) the next `start` runs linnet through, which must exec it
    /// with the arguments it is given (e.g. to change the signal state linnet starts with).
    var launcher: [String] = []

    static let playerName: BusName = "org.mpris.MediaPlayer2.linnet"

    /// The `linnet` binary next to the test bundle, or `$LINNET_TEST_BINARY` (e.g. a release
    /// build for a long `make fuzz`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["LINNET_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("linnet")
    }

    /// A world on a private bus started from `busConfiguration` (a fixture under Tests/Fixtures).
    /// With `activating`, the bus also starts the services described in that folder (D-Bus
    /// activation), in this world's home and XDG folders plus `busEnvironment`.
    init(busConfiguration: String = "session.conf", activating services: URL? = nil, busEnvironment: [String: String] = [:]) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-test-\(UUID().uuidString)")
        media = home.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("runtime"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if let services {
            let config = try String(contentsOfFile: Fixtures.path(busConfiguration), encoding: .utf8)
                .replacingOccurrences(of: "</busconfig>", with: "  <servicedir>\(services.path)</servicedir>\n</busconfig>")
            let configURL = home.appendingPathComponent("activation.conf")
            try config.write(to: configURL, atomically: true, encoding: .utf8)
            // The bus daemon sets the bus address for what it starts.
            let inherited = Self.folders(home: home).merging(busEnvironment) { $1 }
            bus = try PrivateBus(configuration: configURL.path, environment: inherited)
        } else {
            bus = try PrivateBus(configuration: busConfiguration)
        }
        logFile = home.appendingPathComponent("linnet.log")
        client = try DBusConnection(address: bus.address, loop: clientLoop)
        let signals = self.signals
        subscription = try client.subscribe(MatchRule(path: MPRISNames.objectPath)) { signals.record($0) }
    }

    deinit {
        kill()
        subscription?.cancel()
        clientLoop.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// The environment linnet runs in: this world's bus, home and XDG folders, then
    /// ``extraEnvironment`` (e.g. an XDG folder a test breaks on purpose).
    var environment: [String: String] {
        Self.folders(home: home).merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }.merging(extraEnvironment) { $1 }
    }

    /// The home and XDG folders under `home`, and no system bus.
    private static func folders(home: URL) -> [String: String] {
        [
            "HOME": home.path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            // libpulse keeps its runtime folder here; without one it makes /tmp/pulse-* folders
            // that nothing removes, and retries mkdir through all of them at every start.
            "XDG_RUNTIME_DIR": home.appendingPathComponent("runtime").path,
            // No system bus unless a test provides one: linnet must not take a real logind lock.
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(home.path)/no-system-bus",
        ]
    }

    /// The saved session file.
    var sessionFile: URL { home.appendingPathComponent("state/linnet/session.json") }

    /// Starts linnet with `arguments` (a null sink that plays in real time unless given) and
    /// waits until it owns its bus name and has published what it plays.
    func start(_ arguments: [String], sink: String = "fakesink sync=true", waitForName: Bool = true) async throws {
        let linnetArguments = ["--audio-sink", sink, "--log-level", "debug"] + arguments
        let command = launcher + [Self.binary.path] + linnetArguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        for (key, value) in self.environment { environment[key] = value }
        // stdout and stderr into the pipe a test reads, else into a fresh log file.
        let output = try outputPipe.map { FileDescriptor(rawValue: $0.fileHandleForWriting.fileDescriptor) }
            ?? FileDescriptor.open(FilePath(logFile.path), .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
        let process = try await SpawnedProcess(
            command[0], arguments: Array(command.dropFirst()), environment: environment, output: output,
            closeOutput: outputPipe == nil)
        ChildProcessRegistry.record(pid: process.processIdentifier, description: "linnet")
        self.process = process
        if waitForName {
            try await waitForOwner()
            try await waitForQueue()
        }
    }

    /// Waits until linnet's queue is published. linnet takes its name with an empty player and
    /// fills it in once what it was given (files, folders, the saved session) is resolved; it
    /// always has something to play then, or exits. `timeout` bounds a hang, not speed: the demo playlist is encoded before the first queue,
    /// which took 26 s in a full suite on a machine loaded eight times over.
    func waitForQueue(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout.scaledForSanitizers
        while true {
            if case .array(_, let tracks)? = try? await proxy(MPRISNames.trackList).property("Tracks"), !tracks.isEmpty {
                return
            }
            guard ContinuousClock.now < deadline, process?.isRunning == true else {
                throw TestSupportError("linnet published no queue; log:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until linnet's bus name has an owner.
    func waitForOwner(timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout.scaledForSanitizers
        while try await !client.nameHasOwner(Self.playerName) {
            guard ContinuousClock.now < deadline, process?.isRunning == true else {
                throw TestSupportError("linnet did not appear on the bus; log:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for linnet to exit and returns its status (or nil if it did not exit in time).
    func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32? {
        guard let process else { return nil }
        guard let status = await process.waitForExit(timeout: timeout.scaledForSanitizers) else { return nil }
        ChildProcessRegistry.forget(pid: process.processIdentifier)
        return status
    }

    /// Sends `signal` to linnet.
    func send(_ signal: Int32) {
        process?.send(signal)
    }

    /// Kills linnet with SIGKILL (Swift Testing blocks SIGTERM in children).
    func kill() {
        guard let process, process.isRunning else { return }
        process.killAndWait()
        ChildProcessRegistry.forget(pid: process.processIdentifier)
    }

    /// What linnet printed so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Runs playerctl against linnet off the cooperative pool.
    @discardableResult
    func playerctl(_ arguments: String...) async throws -> ToolResult {
        let environment = self.environment
        return try await offPool {
            try ExternalTool.run("playerctl", ["--player=linnet"] + arguments, environment: environment)
        }
    }

    /// A proxy for one of linnet's MPRIS interfaces.
    func proxy(_ interface: InterfaceName) -> DBusProxy {
        DBusProxy(connection: client, destination: Self.playerName, path: MPRISNames.objectPath, interface: interface)
    }

    /// A player property.
    func player(_ name: MemberName) async throws -> DBusValue {
        try await proxy(MPRISNames.player).property(name)
    }

    /// Every queued track's title, in queue order ("?" for one without), from one
    /// GetTracksMetadata of the whole TrackList.
    func queueTitles() async throws -> [String] {
        let trackList = proxy(MPRISNames.trackList)
        let reply = try await trackList.call("GetTracksMetadata", [try await trackList.property("Tracks")])
        guard case .array(_, let maps)? = reply.first else { return [] }
        return maps.map { metadata in
            if case .string(let title)? = metadata["xesam:title"] { return title }
            return "?"
        }
    }

    /// The current title.
    func title() async throws -> String? {
        if case .string(let title)? = try await player("Metadata")["xesam:title"] { return title }
        return nil
    }

    /// Waits until `condition` holds, polling the bus (linnet changes state on its own, e.g. at
    /// the end of a track), failing after `timeout`.
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(20),
        _ condition: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout.scaledForSanitizers
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("timed out waiting for \(what); log:\n\(log.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Makes an Ogg/Vorbis file titled `title` by `artist`, `seconds` long, and returns its path.
    @discardableResult
    func makeTrack(_ name: String, title: String, artist: String = "Tester", seconds: Double = 1,
                   trackNumber: Int? = nil) async throws -> String {
        let location = media.appendingPathComponent(name).path
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: " ", with: "\\ ") }
        var tags = "title=\"\(escaped(title))\",artist=\"\(escaped(artist))\""
        if let trackNumber { tags += ",track-number=\(trackNumber)" }
        let buffers = max(1, Int(seconds * 44_100 / 1024))
        let arguments = [
            "-q", "audiotestsrc", "num-buffers=\(buffers)", "!", "audio/x-raw,rate=44100", "!", "audioconvert", "!",
            "taginject", "tags=\(tags)", "!", "vorbisenc", "!", "oggmux", "!", "filesink", "location=\(location)",
        ]
        let result = try await offPool { try ExternalTool.run("gst-launch-1.0", arguments) }
        guard result.status == 0 else { throw TestSupportError("gst-launch failed: \(result.stderr)") }
        return location
    }

    /// Waits until the scanner has read every queued track. Tests title their tracks unlike
    /// their file names, and until the tags are read linnet shows the file name; a length alone
    /// proves nothing, since the engine reports it for the loaded track before the scan ends.
    func waitForScannedQueue() async throws {
        try await waitUntil("every queued track scanned") {
            let trackList = self.proxy(MPRISNames.trackList)
            let tracks = try await trackList.property("Tracks")
            let reply = try await trackList.call("GetTracksMetadata", [tracks])
            guard case .array(_, let maps)? = reply.first, case .array(_, let ids) = tracks else { return false }
            return maps.count == ids.count && maps.allSatisfy { metadata in
                guard case .string(let title)? = metadata["xesam:title"], case .string(let uri)? = metadata["xesam:url"],
                    let url = URL(string: uri)
                else { return false }
                return title != url.deletingPathExtension().lastPathComponent
            }
        }
    }

    /// Signals recorded so far named `member`.
    func signals(named member: String) -> [DBusSignal] {
        signals.values.filter { $0.member.rawValue == member }
    }
}
