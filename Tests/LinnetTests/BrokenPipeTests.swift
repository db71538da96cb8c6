import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// `linnet … 2>&1 | head -1`: when the reader of linnet's output goes away, the log lines after
/// it are lost, never the player or its saved state (issue 16).
@Suite struct BrokenPipeTests {
    /// Runs its arguments with SIGPIPE at its default action and unblocked, as a shell would
    /// start linnet: a test runner may start children with signals blocked, which would hide
    /// the default action that kills.
    static let defaultSIGPIPE = [
        "/usr/bin/perl", "-e",
        #"use POSIX qw(sigprocmask SIG_UNBLOCK SIGPIPE); $SIG{PIPE} = "DEFAULT"; sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGPIPE)) or die "sigprocmask: $!"; exec { $ARGV[0] } @ARGV or die "exec: $!";"#,
    ]

    /// The signal mask line `field` (SigBlk, SigIgn) of process `pid`, as a number.
    static func signalSet(_ field: String, of pid: Int32) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return nil }
        return UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    @Test(.timeLimit(.minutes(2)))
    func aReaderOfTheLogThatGoesAwayCostsLogLinesNotThePlayer() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("pipe.ogg", title: "Pipe", seconds: 30)
        let pipe = Pipe()
        world.outputPipe = pipe
        world.launcher = Self.defaultSIGPIPE
        try await world.start(["--no-resume", track])
        let pid = try #require(world.process?.processIdentifier)
        let sigpipe = UInt64(1) << (UInt64(SIGPIPE) - 1)
        #expect((Self.signalSet("SigIgn", of: pid) ?? 0) & sigpipe != 0, "linnet does not ignore SIGPIPE")

        // `head -1`: read one line, then go away.
        let reader = pipe.fileHandleForReading
        let first = try await offPool { () -> String in
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            return String(decoding: line, as: UTF8.self)
        }
        #expect(!first.isEmpty)
        try reader.close()
        try? pipe.fileHandleForWriting.close()

        // Things that log: a pause and play, an alarm set and cancelled, a volume change.
        let player = world.proxy(MPRISNames.player)
        try await player.call("Pause")
        try await player.call("Play")
        _ = try await world.clock.call("AddAlarm", [.string("+2h"), .stringVariantDictionary([("label", .string("Piped"))])])
        try await world.clock.call("CancelAlarm", [.uint32(1)])
        try await player.setProperty("Volume", to: .double(0.4))
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        let position = try await world.player("Position")
        try await world.waitUntil("playback to go on") {
            guard case .int64(let now) = try await world.player("Position"), case .int64(let then) = position else { return false }
            return now > then + 500_000
        }

        try await world.proxy(MPRISNames.root).call("Quit")
        let status = try await world.waitForExit()
        #expect(world.process?.terminationReason == .exit, "linnet was killed by signal \(world.process?.terminationStatus ?? -1)")
        #expect(status == 0)
        let saved = try Data(contentsOf: world.sessionFile)
        #expect(String(decoding: saved, as: UTF8.self).contains("0.4"), "the session saved on the way out lacks the volume")
    }
}
