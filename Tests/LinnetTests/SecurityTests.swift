@testable import DesktopClients
import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Guards for what linnet must never do: serve on the system bus, start other programs, write
/// outside its XDG folders, or read sidecars anywhere but next to the media file.
@Suite struct SecurityTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift and C source under Sources/, as (path relative to the repository, text).
    private static func sources() throws -> [(String, String)] {
        let root = repository.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return try walker.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".h") || $0.hasSuffix(".c") }
            .map { ("Sources/\($0)", try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Lines of `text` that match `pattern`, with comments (`//…`) removed first.
    private static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
            let range = NSRange(code.startIndex..., in: code)
            return regex.firstMatch(in: code, range: range) == nil ? nil : code.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func sourcesStartNoProgramsAndNoShell() throws {
        let forbidden = [
            #"\bProcess\s*\("#, #"\bNSTask\b"#, #"\bposix_spawn"#, #"\bpopen\s*\("#,
            // libc's system("…") or system(command); not a Swift method named system(warnings:).
            #"\bsystem\s*\(\s*("|[A-Za-z_]+\s*\))"#,
            #"\bexec[lv]p?e?\s*\("#, #"\bfork\s*\("#, #"\bg_spawn"#, #"/bin/(ba)?sh\b"#, #"\bProcess\.run\b"#,
        ]
        let sources = try Self.sources()
        #expect(sources.count > 50, "found only \(sources.count) source files; is the path right?")
        var hits: [String] = []
        for (path, text) in sources {
            for pattern in forbidden {
                hits += try Self.matches(pattern, in: text).map { "\(path): \($0)" }
            }
        }
        #expect(hits.isEmpty, "sources start programs or a shell:\n\(hits.joined(separator: "\n"))")
    }

    /// The system-bus clients allowed: the suspend inhibitor asking logind (issue 6/9) and the
    /// screen watcher reading logind's IdleHint/LockedHint when no screen saver answers (issue
    /// 17), which only call out and never export an object or own a name there; and the check
    /// that refuses to serve when the session address names the system bus (it reads the address).
    private static let systemBusClients: Set<String> = [
        "Sources/DesktopClients/DesktopSettings.swift", "Sources/DesktopClients/SleepInhibitor.swift",
        "Sources/DesktopClients/DesktopServices+Live.swift", "Sources/linnet/SessionBusCheck.swift",
        "Sources/DesktopClients/ScreenActivityWatcher.swift", "Sources/linnet/Daemon+Lyrics.swift",
    ]

    @Test func theSystemBusIsOnlyAskedForAnInhibitorAndNothingSystemWideIsInstalled() throws {
        var systemBusUses: [String] = []
        for (path, text) in try Self.sources() where !path.hasPrefix("Sources/DBus/") {
            let uses = try Self.matches(#"bus:\s*\.system\b|DBUS_BUS_SYSTEM|SYSTEM_BUS|systemBus"#, in: text)
            if Self.systemBusClients.contains(path) {
                let serving = try Self.matches(#"\.export\(|requestName\(|emitSignal\("#, in: text)
                #expect(serving.isEmpty, "\(path) serves on a bus: \(serving)")
            } else {
                systemBusUses += uses.map { "\(path): \($0)" }
            }
        }
        #expect(systemBusUses.isEmpty, "\(systemBusUses)")
        let daemon = try String(contentsOf: Self.repository.appendingPathComponent("Sources/linnet/Daemon.swift"), encoding: .utf8)
        #expect(daemon.contains("DBusConnection(bus: .session)"))

        // Nothing for the system bus or system-wide systemd: no policy files, no User= in the
        // activation file (system-bus activation needs one), installed under the user's prefix.
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("dbus").path)
        #expect(!shipped.contains { $0.hasSuffix(".conf") }, "\(shipped)")
        let activation = try String(contentsOf: Self.repository.appendingPathComponent("dbus/org.mpris.MediaPlayer2.linnet.service.in"), encoding: .utf8)
        #expect(!activation.contains("User="))
        #expect(activation.contains("SystemdService=linnet.service") || activation.contains("Exec="))
        let install = try String(contentsOf: Self.repository.appendingPathComponent("scripts/install.sh"), encoding: .utf8)
        #expect(install.contains("dbus-1/services/") && !install.contains("system-services") && !install.contains("system.d"))
        #expect(install.contains("systemd/user/") && !install.contains("systemd/system"))
    }

    /// A session with hostile tag text, edits, saves and a clean quit writes only to the XDG
    /// state, cache and data folders (and reads sidecars only next to the track).
    @Test func filesAreWrittenOnlyUnderTheXDGFolders() async throws {
        let world = try LinnetWorld()
        let escape = "linnet-escape-\(UUID().uuidString)"
        let track = try await world.makeTrack(
            "hostile.ogg", title: "../../../../../tmp/\(escape)", artist: "../../\(escape)", seconds: 3)
        // Sidecars that tag text or a parent folder might point at: none may be used.
        try "[00:00.00]from the parent folder".write(
            to: world.home.appendingPathComponent("hostile.lrc"), atomically: true, encoding: .utf8)
        try "[00:00.00]named after the title".write(
            to: world.media.appendingPathComponent("\(escape).lrc"), atomically: true, encoding: .utf8)
        let before = Set(try allFiles(under: world.home))
        try await world.start(["--no-resume", track])
        try await world.waitForScannedQueue()
        try await world.proxy(MPRISNames.player).setProperty("Volume", to: .double(0.3))
        let metadata = try await world.player("Metadata")
        #expect(metadata["xesam:asText"] == nil, "lyrics were read from somewhere other than hostile.lrc/.txt next to the track")
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)

        let written = Set(try allFiles(under: world.home)).subtracting(before)
        let allowed = ["state/", "cache/", "data/"].map { world.home.appendingPathComponent($0).path }
        let outside = written.filter { path in path != world.logFile.path && !allowed.contains { path.hasPrefix($0) } }
        #expect(outside.isEmpty, "written outside the XDG folders: \(outside.sorted())")
        #expect(written.contains(world.sessionFile.path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(escape)"))
        #expect(!written.contains { $0.contains(escape) }, "a file name came from tag text: \(written.sorted())")
    }

    /// The demo playlist and the alarm tone are written under the cache like state: every
    /// directory linnet makes 0700, every file 0600 (issue 16; they were 0755/0644).
    @Test(.timeLimit(.minutes(1)))
    func theCacheIsAsPrivateAsTheState() async throws {
        let world = try LinnetWorld()
        try await world.start(["--no-resume", "--paused"])
        _ = try await world.proxy("io.linnet.Linnet1").call("AddAlarm", [.string("+2h"), .stringVariantDictionary([])])
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        // $XDG_CACHE_HOME itself and its gstreamer-1.0 registry are GStreamer's (made before linnet
        // writes anything); linnet's is the linnet folder.
        let cache = world.home.appendingPathComponent("cache/linnet")
        let paths = [cache.path] + (try allFiles(under: cache) + allDirectories(under: cache)).sorted()
        #expect(paths.contains { $0.hasSuffix("/linnet/demo") } && paths.contains { $0.hasSuffix("/linnet/sounds") }, "\(paths)")
        #expect(paths.contains { $0.hasSuffix(".wav") }, "\(paths)")
        for path in paths {
            var info = stat()
            #expect(stat(path, &info) == 0)
            let expected: mode_t = info.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
            #expect(info.st_mode & 0o777 == expected, "\(path) has mode \(String(info.st_mode & 0o777, radix: 8))")
        }
    }

    private func allDirectories(under directory: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { directory.appendingPathComponent($0).path }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    private func allFiles(under directory: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { directory.appendingPathComponent($0).path }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
