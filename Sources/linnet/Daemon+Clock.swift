import DesktopClients
import ClockRules
import DBus
import FoundationEssentials
import LinnetCore
import Logging
import Playback

extension Daemon {
    /// The clock features (alarms, sleep timer, Pomodoro) with their own effects engine, and the
    /// `io.linnet.Linnet1` interface that exposes them. `services` is the daemon's one bundle of
    /// desktop services, shared with the player; the alarms are kept in `stateDirectory`.
    func makeClock(controller: PlayerController, connection: DBusConnection, services: DesktopServices, stateDirectory: String,
                   lyrics: LyricsFollower? = nil) throws
        -> (ClockService, LinnetExtension)
    {
        let effectsOutput = options.effectsSink.map { AudioOutput.description($0) } ?? .system
        // Tagged as an event sound: a call corks the music, not the alarm meant to wake you.
        // The headphone cap holds for alarms too: a ringing alarm must not blast into earphones.
        let engine = GStreamerEngine(output: effectsOutput, role: .event, headphoneVolumeCap: options.desktop.headphoneVolumeCap)
        let effects = EffectsPlayer(engine: engine)
        var configuration = ClockConfiguration(
            alarmsFile: URL(filePath: stateDirectory + "/alarms.json", directoryHint: .notDirectory),
            soundsDirectory: directories.linnetCache + "/sounds", home: directories.home)
        configuration.ringLimit = options.ringLimit
        let clock = ClockService(controller: controller, effects: effects, services: services, configuration: configuration)
        let linnetInterface = LinnetExtension(
            clock: clock, connection: connection, focus: services.focus, home: directories.home, lyrics: lyrics)
        clock.loadAlarms()
        try linnetInterface.export()
        return (clock, linnetInterface)
    }
}
