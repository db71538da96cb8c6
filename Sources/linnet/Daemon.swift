import DesktopClients
import ArgumentParser
import DBus
import EventLoop
import FoundationEssentials
import LibraryCache
import Glibc
import LinnetCore
import Logging
import Playback
import PlayerCore
import Synchronization

/// One run of the service: connect, decide what to play, serve until asked to quit.
struct Daemon {
    /// Why the service ends, and the exit status that says so.
    enum Ending: Sendable {
        case quitRequested
        case signal(Int32)
        case busLost
        /// Nothing to play could be found after appearing (66: nothing playable given).
        case startFailed(Int32)

        var status: Int32 {
            switch self {
            case .busLost: 70
            case .startFailed(let status): status
            case .quitRequested, .signal: 0
            }
        }
    }

    let options: PlayOptions
    let logger: Logger
    let directories: XDGDirectories

    init(options: PlayOptions, logger: Logger) {
        self.options = options
        self.logger = logger
        directories = XDGDirectories()
    }

    /// Everything up to owning the MPRIS name, without suspending: connects, claims the
    /// session's names and state, builds the player with an empty queue and appears. `main`
    /// runs this on its own thread before Swift's thread pool has started, so the name does
    /// not wait for the pool's threads; what to play is resolved after (``finish(_:)``).
    func launch() throws -> Launch {
        let connection: DBusConnection
        do {
            connection = try DBusConnection(bus: .session)
        } catch {
            StandardError.write("""
                linnet: cannot reach the session bus (\(error.message))
                Run linnet inside a desktop session, or start one with: dbus-run-session -- linnet

                """)
            return .ended(69)
        }
        if let problem = SessionBusCheck.problem(connection: connection, environment: SessionBusCheck.processVariables()) {
            StandardError.write("linnet: \(problem)\n")
            return .ended(69)
        }

        let role = InstanceRole(name: options.name, newInstance: options.newInstance)
        guard role.kind == .primary else { return try appear(connection: connection, role: role, application: nil) }
        switch claimOnce(connection) {
        case .claimed(let application): return try appear(connection: connection, role: role, application: application)
        case .handedOver(let status): return .ended(status)
        case nil: return .heldByAnother(connection, role)
        }
    }

    /// Serves a launch until the service ends; returns the exit status. Another linnet holding
    /// the session's name gets the inputs handed over here (round trips that suspend).
    func finish(_ launch: Launch) async throws -> Int32 {
        switch launch {
        case .ended(let status):
            return status
        case .heldByAnother(let connection, let role):
            switch await handOverOrClaim(connection) {
            case .claimed(let application):
                return try await finish(appear(connection: connection, role: role, application: application))
            case .handedOver(let status):
                return status
            }
        case .appeared(let appearance):
            return try await serve(appearance)
        }
    }

    /// Claims the state folder, builds the player with an empty queue and owns the MPRIS name.
    private func appear(connection: DBusConnection, role: InstanceRole, application: DesktopApplication?) throws -> Launch {
        // From here on this process is the only writer of its state folder.
        let state = claimState(role)

        var configuration = PlayerConfiguration(
            // Made whole with its kind given: `URL(fileURLWithPath:)` and `appendingPathComponent`
            // each ask the file system whether the path is a directory, before the bus name.
            sessionFile: URL(filePath: state.directory + "/session.json", directoryHint: .notDirectory),
            playlistDirectories: [directories.musicDirectory, directories.linnetPlaylists].map { URL(fileURLWithPath: $0) },
            home: directories.home)
        configuration.busName = role.busSuffix
        configuration.audioOutput = options.audioSink.map { AudioOutput.description($0) } ?? .system
        configuration.repeatMode = options.loop?.mode
        configuration.shuffle = options.shuffle
        configuration.volume = options.volume
        configuration.desktop = options.desktop.behaviour
        configuration.scanCache = LibraryCache(directory: directories.linnetCache, logger: Logger(label: "linnet.library"))
        // The former reader, kept reachable for `make bench` to measure the two in one run.
        if ProcessEnvironment.value("LINNET_TAG_READER") == "gstreamer" { configuration.tagSource = .gstreamerOnly }

        let engine = GStreamerEngine(output: configuration.audioOutput, headphoneVolumeCap: options.desktop.headphoneVolumeCap)
        let desktop = DesktopServices.unstarted(
            connection: connection, settings: options.desktop.settings, logger: logger,
            focusJournal: FocusJournalFile(directory: state.directory, logger: logger))
        let controller = PlayerController(
            connection: connection, engine: engine, configuration: configuration, desktop: desktop)
        let (lyrics, screen) = followLyrics(controller: controller, connection: connection)
        // One bundle of desktop services, shared by the player and the clock features.
        let (clock, linnetInterface) = try makeClock(
            controller: controller, connection: connection, services: desktop, stateDirectory: state.directory, lyrics: lyrics)

        let ending = Ending.Box()
        controller.onQuit { ending.finish(.quitRequested) }
        let signals = SignalRelay.install { ending.finish(.signal($0)) }
        connection.onEvent { event in
            if event == .disconnected { ending.finish(.busLost) }
        }

        // The name first, with an empty player: what to play (arguments, folders, the saved
        // session) is resolved after, and the queue, Metadata and status appear together.
        let busName: BusName
        do {
            busName = try controller.appear()
        } catch {
            StandardError.write("linnet: cannot appear on the bus: \(error)\n")
            clock.shutdown()
            engine.shutdown()
            application?.close()
            return .ended(69)
        }
        logger.notice("on the bus as \(busName); control it with: playerctl -p \(busName.rawValue.dropFirst("org.mpris.MediaPlayer2.".count)) play-pause")
        return .appeared(Appearance(
            connection: connection, role: role, application: application, state: state, configuration: configuration,
            desktop: desktop, controller: controller, lyrics: lyrics, screen: screen, clock: clock,
            linnetInterface: linnetInterface, ending: ending, signals: signals))
    }

    /// Serves from the moment the name is owned until the service ends.
    private func serve(_ appearance: Appearance) async throws -> Int32 {
        let (connection, role, application, state, configuration) = (
            appearance.connection, appearance.role, appearance.application, appearance.state, appearance.configuration)
        let (desktop, controller, lyrics, screen, clock) = (
            appearance.desktop, appearance.controller, appearance.lyrics, appearance.screen, appearance.clock)
        let (linnetInterface, ending, signals) = (appearance.linnetInterface, appearance.ending, appearance.signals)
        // Other players, notifications and the screen saver are followed from here: a dozen
        // round trips to the bus that the name need not wait for. Before the machine begins, so
        // that focus knows the other players before linnet first plays.
        desktop.start()
        watchScreen(screen, for: lyrics)
        if role.kind != .apart { removeAbandonedScratch() }
        let claimedApplication = application
        let starting = Task { [configuration] in
            let given: Int
            do {
                let (session, items, autoplay) = try await chooseWhatToPlay(
                    configuration, resume: !state.scratch, scanner: controller.scanner)
                controller.begin(session: session, items: items, autoplay: autoplay)
                given = items.count + (session?.queue.count ?? 0)
            } catch let exit as ExitCode {
                ending.finish(.startFailed(exit.rawValue))
                return
            } catch {
                StandardError.write("linnet: \(error)\n")
                ending.finish(.startFailed(1))
                return
            }
            // The resolution and the session read are gone now: what they left freed goes back.
            HeapTrim.afterRelease(ofEntries: given)
            // Files handed over meanwhile (a second `linnet FILES`) waited for this, so they
            // replace or follow what this launch was given, in the order they came.
            claimedApplication?.serve(controller)
            do {
                try clock.start()
            } catch {
                logger.error("alarms are unavailable: \(error)")
            }
        }

        let reason = await ending.wait()
        application?.close()
        // A quit while still resolving (a large folder's tags) does not wait for it.
        starting.cancel()
        signals?.cancel()
        switch reason {
        case .busLost:
            logger.error("the session bus went away; saving the session and exiting")
        case .signal(let number):
            logger.notice("received signal \(number); saving the session and exiting")
        case .quitRequested:
            logger.notice("asked to quit; saving the session and exiting")
        case .startFailed:
            break
        }
        // Each step's time goes to the debug log: a slow exit on someone's desktop says where.
        let stopping = ContinuousClock.now
        withExtendedLifetime(linnetInterface) { clock.shutdown() }
        screen.stop()
        lyrics.stop()
        let alarmsSaved = clock.finishSavingAlarms()
        let clockStopped = ContinuousClock.now
        controller.shutdown()
        let playerStopped = ContinuousClock.now
        await desktop.settle()
        connection.flush()
        let stopped = ContinuousClock.now
        logger.debug("""
            stopped in \(Self.milliseconds(stopped - stopping)): clock and alarms \(Self.milliseconds(clockStopped - stopping)), \
            player (final save, engine) \(Self.milliseconds(playerStopped - clockStopped)), \
            desktop (other players, notifications, inhibitor) \(Self.milliseconds(stopped - playerStopped))
            """)
        // The saves on the way out are the last word: one that failed must not look like a
        // clean exit to a service manager or a script.
        let sessionSaved = !SaveOutcomes.lastSaveFailed(configuration.sessionFile.path)
        if state.scratch {
            try? FileManager.default.removeItem(atPath: state.directory)
            _ = rmdir(InstanceRole.scratchParent(directories))
        }
        // The state lock and io.linnet.Linnet go with the process, after the final save: a
        // linnet started meanwhile hands over to this one, is refused, and claims the name once
        // it is free.
        withExtendedLifetime(state.lock) {}
        // Everything is saved and given back: the loop thread ends here, so no D-Bus or timer
        // work runs on it while the process exits under it (a SIGSEGV in pthread_mutex_lock on
        // that thread was seen at exit, rarely, right after Quit).
        EventLoop.shared.stop()
        guard sessionSaved && alarmsSaved else {
            let lost = [sessionSaved ? nil : "the session", alarmsSaved ? nil : "the alarms"].compactMap { $0 }
            logger.error("the final save failed (\(lost.joined(separator: " and "))); exiting with status 74")
            return reason.status == 0 ? 74 : reason.status
        }
        return reason.status
    }

    /// The saved session, or fresh items from the command line, the music folder or the demo.
    private func chooseWhatToPlay(_ configuration: PlayerConfiguration, resume: Bool, scanner: MetadataScanner) async throws
        -> (SavedSession?, [PlayableItem], Bool)
    {
        let autoplay = !options.paused
        let resolver = MediaResolver(scanner: scanner)
        let cwd = FileManager.default.currentDirectoryPath
        if !options.inputs.isEmpty {
            let resolved = await resolver.resolve(options.inputs, workingDirectory: cwd, home: directories.home)
            report(resolved.rejections)
            guard !resolved.items.isEmpty else {
                StandardError.write("linnet: nothing playable in what was given\n")
                throw ExitCode(66)
            }
            return (nil, resolved.items, autoplay)
        }
        if !options.noResume && resume {
            switch StateStore<SavedSession>(fileURL: configuration.sessionFile).load() {
            case .loaded(let session) where !session.queue.entries.isEmpty:
                logger.info("resuming the saved session")
                return (session, [], false)
            case .corrupt(let reason, _):
                logger.warning("the saved session was unreadable and was set aside: \(reason)")
            default:
                break
            }
        }
        if FileManager.default.fileExists(atPath: directories.musicDirectory) {
            // A whole library is ordered by path and name without reading every file's tags first,
            // so linnet is on the bus at once; the player reads tags in the background.
            let music = await MediaResolver(scanner: nil).resolve(
                [directories.musicDirectory], workingDirectory: cwd, home: directories.home)
            if !music.items.isEmpty {
                logger.info("playing the music folder \(directories.musicDirectory)")
                return (nil, music.items, autoplay)
            }
        }
        logger.info("no music found in \(directories.musicDirectory); playing the demo playlist")
        let demo = try DemoPlaylist(directory: directories.linnetDemo).prepare()
        return (nil, demo.map { PlayableItem(uri: $0) }, autoplay)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    private func report(_ rejections: [Rejection]) {
        for rejection in rejections {
            logger.warning("skipping \(rejection)")
        }
    }
}

extension Daemon.Ending {
    /// The first reason to end wins; `wait` suspends until there is one.
    final class Box: Sendable {
        /// The waiter is kept as a closure, not as its continuation: a box is made before the
        /// bus name, and a `CheckedContinuation<_, Never>` field had the runtime look up
        /// Never's Error conformance then, a scan of every conformance in the process.
        private let state = Mutex<(reason: Daemon.Ending?, waiter: (@Sendable (Daemon.Ending) -> Void)?)>((nil, nil))

        func finish(_ reason: Daemon.Ending) {
            let waiter = state.withLock { state -> (@Sendable (Daemon.Ending) -> Void)? in
                guard state.reason == nil else { return nil }
                state.reason = reason
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?(reason)
        }

        func wait() async -> Daemon.Ending {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Daemon.Ending? in
                    if let reason = state.reason { return reason }
                    state.waiter = { continuation.resume(returning: $0) }
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
