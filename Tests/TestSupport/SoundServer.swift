import Foundation

/// A private PulseAudio daemon for one test (see PLATFORM-NOTES): null sinks to play into (the
/// last one is the default), module-role-cork so a `media.role=phone` stream corks
/// `media.role=music` streams, and the CLI protocol for what `pactl` cannot do (changing a
/// sink's properties).
public final class SoundServer: @unchecked Sendable {
    /// Whether PulseAudio is installed here.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") }

    /// The server address for pulsesink's `server` property and `pactl -s`.
    public let address: String
    /// The socket of the server's command-line interface (module-cli-protocol-unix).
    private let cliSocket: String
    private let pid: pid_t
    private var stopped = false

    /// Starts the daemon with its runtime files in `directory` and a null sink per name in
    /// `sinks`. `properties` gives some of them sink properties, such as
    /// `device.form_factor=headphone` to stand in for headphones (null sinks have no ports).
    public init(in directory: String, sinks: [String] = ["linnet_test"], properties: [String: String] = [:]) throws {
        address = "unix:\(directory)/native"
        cliSocket = "\(directory)/cli"
        var script = sinks.map { name in
            let extra = properties[name].map { " sink_properties=\($0)" } ?? ""
            return "load-module module-null-sink sink_name=\(name)\(extra)\n"
        }.joined()
        script += """
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory)/native
            load-module module-role-cork trigger_roles=phone cork_roles=music
            load-module module-cli-protocol-unix socket=\(directory)/cli

            """
        if let last = sinks.last { script += "set-default-sink \(last)\n" }
        try script.write(toFile: "\(directory)/test.pa", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory
        environment["HOME"] = directory
        environment["PULSE_SERVER"] = address
        // posix_spawn rather than Foundation's Process, closing every inherited descriptor (see
        // `spawn`).
        pid = try Self.spawn("/usr/bin/pulseaudio", [
            "-n", "-F", "\(directory)/test.pa", "--exit-idle-time=-1", "--daemonize=no",
            "--use-pid-file=no",
        ], environment: environment)
        ChildProcessRegistry.record(pid: pid, description: "pulseaudio")
        // Ready once its socket exists; test-side waiting only.
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: "\(directory)/native") {
            guard ContinuousClock.now < deadline else {
                stop()
                throw TestSupportError("pulseaudio did not start")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// A playback stream as the server sees it (`pactl -f json list sink-inputs`; Debian 12's
    /// pactl 16.1 has the JSON output).
    public struct SinkInput: Sendable {
        public let index: Int
        public let muted: Bool
        /// Raw per-channel volumes: 65536 is 100 % on the server's cubic scale.
        public let volumes: [Int]
        /// The index of the sink it plays to.
        public let sink: Int
        /// Its properties, such as `media.role`.
        public let properties: [String: String]
    }

    /// The server's playback streams, via `pactl` as a mixer would see them.
    public func sinkInputs() throws -> [SinkInput] {
        let result = try pactl(["-f", "json", "list", "sink-inputs"])
        guard let streams = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("unexpected pactl output: \(result.stdout)")
        }
        return streams.compactMap { stream in
            guard let index = stream["index"] as? Int, let muted = stream["mute"] as? Bool,
                  let channels = stream["volume"] as? [String: [String: Any]] else { return nil }
            return SinkInput(
                index: index, muted: muted, volumes: channels.values.compactMap { $0["value"] as? Int },
                sink: stream["sink"] as? Int ?? -1,
                properties: stream["properties"] as? [String: String] ?? [:])
        }
    }

    /// The index of the sink named `name`.
    public func sinkIndex(_ name: String) throws -> Int? {
        let lines = try pactl(["list", "short", "sinks"]).stdout.split(separator: "\n")
        let fields = lines.map { $0.split(separator: "\t") }.first { $0.count > 1 && $0[1] == name }
        return fields.flatMap { Int($0[0]) }
    }

    /// Unloads the null sink named `name`, as when a USB or Bluetooth device goes away.
    public func removeSink(_ name: String) throws {
        let lines = try pactl(["list", "short", "modules"]).stdout.split(separator: "\n")
        guard let line = lines.first(where: { $0.contains("sink_name=\(name)") }),
              let module = line.split(separator: "\t").first
        else { throw TestSupportError("no module loaded sink \(name)") }
        try pactl(["unload-module", String(module)])
    }

    /// Moves the stream `input` to the sink named `sink`, as a user does in a mixer.
    public func move(input: Int, to sink: String) throws {
        try pactl(["move-sink-input", "\(input)", sink])
    }

    /// Sets `assignment` (`key=value`) in the properties of the sink named `sink`, as a device
    /// whose nature changes would (PulseAudio's `update-sink-proplist`; the server then reports
    /// the sink as changed). Returns once `pactl` sees the new value.
    public func updateSinkProperty(_ sink: String, _ key: String, _ value: String) throws {
        try sendCommand("update-sink-proplist \(sink) \(key)=\(value)\n")
        let deadline = ContinuousClock.now + .seconds(10)
        while !(try pactl(["list", "sinks"]).stdout.contains("\(key) = \"\(value)\"")) {
            guard ContinuousClock.now < deadline else { throw TestSupportError("\(sink) never got \(key)=\(value)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Writes `command` to the server's CLI socket (it answers nothing on success).
    private func sendCommand(_ command: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket failed: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(cliSocket.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestSupportError("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw TestSupportError("cannot connect to \(cliSocket): \(errno)") }
        let bytes = Array(command.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw TestSupportError("short write to the CLI") }
    }

    /// Runs `pactl` against this server and fails on a non-zero exit.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> ToolResult {
        let result = try ExternalTool.run("pactl", ["-s", address] + arguments)
        guard result.status == 0 else { throw TestSupportError("pactl \(arguments) failed: \(result.stderr)") }
        return result
    }

    /// SIGKILL: Swift Testing children do not receive SIGTERM (PLATFORM-NOTES).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        ChildProcessRegistry.forget(pid: pid)
    }

    deinit { stop() }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module
    /// does not export.
    private static let closeInheritedDescriptors: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc 2.34 or later is needed for posix_spawn_file_actions_addclosefrom_np")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of the test process: other tests' pipes and Foundation's child-exit
        // sockets are not close-on-exec, and a pulseaudio holding them kept those tests waiting
        // for an end of file until it exited (a blocked test thread stalls the whole run).
        guard Self.closeInheritedDescriptors(&actions, 3) == 0 else { throw TestSupportError("posix_spawn: closefrom failed") }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw TestSupportError("posix_spawn \(path) failed: \(result)") }
        return pid
    }
}
