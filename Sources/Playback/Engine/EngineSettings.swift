/// How every pipeline of one ``GStreamerEngine`` is built, so a replacement matches the original.
struct EngineSettings: Sendable {
    var output: AudioOutput
    var application: ApplicationIdentity
    var role: MediaRole
    var replayGain: ReplayGainMode
    var artCache: ArtCache
    /// The most the output volume may be while it goes to headphones; nil: no cap.
    var headphoneVolumeCap: Double?
    /// How long a change to NULL may take before the pipeline counts as stuck and is replaced.
    /// Healthy pipelines take milliseconds; five seconds leaves room for a loaded machine.
    var stuckPatience: Duration = .seconds(5)
}
