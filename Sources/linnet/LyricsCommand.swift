import ArgumentParser
import DBus
import EventLoop
import Glibc
import LinnetCore
import MPRIS

/// `linnet lyrics [--follow]`: the synced lyric line sung now, or each line as it comes.
struct LyricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyrics", abstract: "Print the synced lyric line sung now; --follow prints each line as it changes.",
        discussion: """
            Lyrics come from an .lrc file next to the track or from LRC text in its lyrics tag. \
            With --follow, linnet lyrics prints each new line the moment linnet announces it and \
            ends when the track ends (exit 0), or on Ctrl-C.

            Exit status: 0 once a line was printed (an empty line before the first one), \
            \(nothingPlays) when nothing plays, \(noLyrics) when the track has no synced lyrics, \
            69 when linnet is not running.
            """)

    /// Nothing is loaded, or the player is stopped.
    static let nothingPlays: Int32 = 3
    /// The current track has no time-stamped lyrics (perhaps plain ones: MPRIS xesam:asText).
    static let noLyrics: Int32 = 4

    @Flag(help: "Keep printing each line as it changes, until the track ends.") var follow = false
    @OptionGroup var instance: InstanceOptions

    func run() async throws {
        let client = try LinnetClient(instance)
        // Subscribed before the first read, so no change between the two is lost.
        let changes = follow ? try LyricsChanges(client) : nil
        guard let track = try await playingTrack(client) else {
            fail("nothing is playing", status: Self.nothingPlays)
        }
        let lyricsTrack = try await linnetProperty(client, "SyncedLyricsTrack")
        guard case .array(_, let lines)? = try await client.call("GetSyncedLyrics").first, !lines.isEmpty,
            lyricsTrack == .objectPath(track)
        else {
            fail("the track has no synced lyrics", status: Self.noLyrics)
        }
        guard let changes else {
            if case .string(let line) = try await linnetProperty(client, "CurrentLyric") { printLine(line) }
            return
        }
        defer { quiesce() }
        changes.readCurrentLine(client)
        // Signals dispatched before the first read's reply are older than it: skipped.
        var shown: String?
        for await change in changes.stream {
            switch change {
            case .current(let text):
                shown = text
                printLine(text)
            case .line(let text):
                guard let previous = shown, text != previous else { continue }
                shown = text
                printLine(text)
            case .player(let status, let trackID):
                if status == "Stopped" || (trackID != nil && trackID != track) { return }
            case .linnetQuit:
                fail("linnet quit", status: 69)
            }
        }
    }

    /// Ends the loop thread before the process exits: signals still arriving (a track change
    /// brings several) must not be dispatched while exit tears the process down under them
    /// (`--follow` died with SIGSEGV that way, rarely, at the end of a track).
    private func quiesce() {
        EventLoop.shared.stop()
    }

    /// The MPRIS track id of the track loaded now, or nil when nothing is (or it is stopped).
    private func playingTrack(_ client: LinnetClient) async throws -> ObjectPath? {
        let status = try await client.playerProperty("PlaybackStatus")
        guard status != .string("Stopped"), case .objectPath(let track)? = try await client.playerProperty("Metadata")["mpris:trackid"],
            track.rawValue.hasPrefix("/org/linnet/track/")
        else { return nil }
        return track
    }

    private func linnetProperty(_ client: LinnetClient, _ name: String) async throws -> DBusValue {
        let reply = try await client.call(
            "Get", [.string(LinnetExtension.interfaceName.rawValue), .string(name)], interface: .properties)
        guard case .variant(let value)? = reply.first else { return .string("") }
        return value
    }

    /// Prints at once: a pipe would otherwise hold the lines until the command ends.
    private func printLine(_ text: String) {
        writeAll(STDOUT_FILENO, text + "\n")
    }

    private func fail(_ message: String, status: Int32) -> Never {
        writeAll(STDERR_FILENO, "linnet: \(message)\n")
        quiesce()
        Glibc.exit(status)
    }

    private func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// What `--follow` listens to: CurrentLyric changes, the player stopping or changing track,
/// and linnet leaving the bus. Signals only; nothing is polled.
private final class LyricsChanges: Sendable {
    enum Change: Sendable {
        /// The line when the first read was answered.
        case current(String)
        case line(String)
        /// PlaybackStatus and/or the track id changed (nil: not in this signal).
        case player(status: String?, trackID: ObjectPath?)
        case linnetQuit
    }

    let stream: AsyncStream<Change>
    private let continuation: AsyncStream<Change>.Continuation
    private let subscriptions: [DBusSubscription]

    /// Reads CurrentLyric; the answer joins the stream in dispatch order (see
    /// `DBusConnection.call(…completion:)`), after every signal sent before it.
    func readCurrentLine(_ client: LinnetClient) {
        let continuation = self.continuation
        client.connection.call(
            destination: client.destination, path: MPRISNames.objectPath, interface: .properties, member: "Get",
            arguments: [.string(LinnetExtension.interfaceName.rawValue), .string("CurrentLyric")], timeout: .seconds(10)
        ) { result in
            guard case .success(let reply) = result, case .variant(.string(let line))? = reply.first else {
                continuation.yield(.linnetQuit)
                return
            }
            continuation.yield(.current(line))
        }
    }

    init(_ client: LinnetClient) throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        self.stream = stream
        self.continuation = continuation
        let interface = LinnetExtension.interfaceName.rawValue
        let properties = MatchRule(
            sender: client.destination, path: MPRISNames.objectPath, interface: .properties, member: "PropertiesChanged")
        let quit = MatchRule(
            sender: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "NameOwnerChanged",
            arguments: [0: client.destination.rawValue])
        do {
            subscriptions = [
                try client.connection.subscribe(properties) { signal in
                    guard signal.arguments.count >= 2, case .string(let changedInterface) = signal.arguments[0] else { return }
                    let changed = signal.arguments[1]
                    if changedInterface == interface, case .string(let line)? = changed["CurrentLyric"] {
                        continuation.yield(.line(line))
                    } else if changedInterface == MPRISNames.player.rawValue {
                        var status: String?
                        if case .string(let value)? = changed["PlaybackStatus"] { status = value }
                        var trackID: ObjectPath?
                        if case .objectPath(let value)? = changed["Metadata"]?["mpris:trackid"] { trackID = value }
                        if status != nil || trackID != nil { continuation.yield(.player(status: status, trackID: trackID)) }
                    }
                },
                try client.connection.subscribe(quit) { signal in
                    if signal.arguments.count == 3, signal.arguments[2] == .string("") { continuation.yield(.linnetQuit) }
                },
            ]
        } catch {
            LinnetClient.fail("cannot follow linnet's signals (\(error.message))")
        }
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
    }
}
