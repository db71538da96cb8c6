import Foundation
import Playback
import Testing

/// ReplayGain tags change what is played only when ReplayGain is on.
@Suite struct ReplayGainTests {
    @Test func trackGainHalvesTheLevelOnlyWhenEnabled() async throws {
        let media = try MediaFactory()
        // -6.0206 dB is a factor of 0.5 in amplitude.
        let uri = try await media.ogg("rg.ogg", buffers: 20, tags: #"title="Loud",replaygain-track-gain=-6.0206,replaygain-track-peak=0.5"#)
        var levels: [ReplayGainMode: Double] = [:]
        for mode in [ReplayGainMode.off, .track] {
            let name = "\(mode).wav"
            let engine = GStreamerEngine(output: .description(media.captureSink(name)), replayGain: mode)
            let log = EventLog(engine.events)
            engine.load(uri)
            try await playToEnd(engine, log)
            engine.shutdown()
            #expect(!log.events.contains { $0.isWarning || $0.isError })
            let samples = try WAVFile.samples(at: media.path(name))
            // Skip the encoder's ramp-in at the start.
            let body = samples.dropFirst(samples.count / 4)
            levels[mode] = sqrt(body.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(body.count))
        }
        let ratio = (levels[.track] ?? 0) / (levels[.off] ?? 1)
        print("RMS without ReplayGain \(levels[.off] ?? 0), with track gain \(levels[.track] ?? 0), ratio \(ratio)")
        #expect(abs(ratio - 0.5) < 0.02)
    }
}
