internal import CGStreamer
import Synchronization

/// Listens to playbin's `notify::volume` and `notify::mute`.
///
/// With a sink that implements GstStreamVolume (pulsesink, also inside autoaudiosink on
/// PulseAudio or PipeWire) playbin proxies both properties to the sound server's stream, so
/// these notifications also fire when the user changes linnet's volume in a mixer. They arrive
/// on whichever thread caused them: pulsesink's streaming thread for the sound server's changes
/// (emitted when it next writes audio), the setting thread for the engine's own. The handler
/// therefore touches no engine state; it only asks the loop thread to read the properties again,
/// once per burst: pulsesink notifies volume and mute together for every change to its stream.
final class VolumeWatcher: Sendable {
    /// Set when a re-read is scheduled and not started yet.
    private let scheduled = Atomic<Bool>(false)

    /// Connects both notifications on `playbin`; `schedule` must queue a call to the engine
    /// that begins with ``rearm()``. Returns the handler ids; each holds a reference to the
    /// watcher until it is disconnected.
    func install(
        on playbin: UnsafeMutablePointer<GstElement>, schedule: @escaping @Sendable () -> Void
    ) -> [gulong] {
        let handler = Handler(watcher: self, schedule: schedule)
        let signals: [String] = ["notify::volume", "notify::mute"]
        return signals.map { signal in
            linnet_gst_connect_notify(playbin, signal, { _, _, data in
                guard let data else { return }
                Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().notified()
            }, Unmanaged.passRetained(handler).toOpaque(), { data, _ in
                if let data { Unmanaged<Handler>.fromOpaque(data).release() }
            })
        }
    }

    /// Called on the loop thread before reading: a change that lands during the read schedules
    /// another one rather than being lost.
    func rearm() {
        scheduled.store(false, ordering: .sequentiallyConsistent)
    }

    fileprivate func notified(_ schedule: @Sendable () -> Void) {
        guard !scheduled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        schedule()
    }
}

/// What a signal connection owns: the watcher and how to reach the loop thread.
private final class Handler: Sendable {
    let watcher: VolumeWatcher
    let schedule: @Sendable () -> Void

    init(watcher: VolumeWatcher, schedule: @escaping @Sendable () -> Void) {
        self.watcher = watcher
        self.schedule = schedule
    }

    func notified() { watcher.notified(schedule) }
}
