import Dispatch
import Foundation

/// Says loudly when a state change to NULL has not returned after a while.
///
/// `gst_element_set_state(…, NULL)` joins every streaming thread, and a thread that never winds
/// down (seen with a download cut short of its Content-Length) blocks the caller for good. The
/// engine's own loop thread is the one stuck then, so it cannot report it: this one-shot timer,
/// armed only around the call, writes to stderr and posts a warning on the event stream, which
/// other threads can still read. Nothing is armed while the engine idles.
enum StateChangeWatchdog {
    /// How long a change to NULL may take before it is reported as stuck.
    static let patienceSeconds = 5

    /// Runs `change` (on the calling thread) and reports through `report` if it is still running
    /// after ``patienceSeconds``.
    static func guarding(
        _ what: String, report: @escaping @Sendable (String) -> Void, _ change: () -> Void
    ) {
        let alarm = DispatchWorkItem {
            let text = "GStreamer has not finished \(what) after \(patienceSeconds) s: the pipeline is stuck; "
                + "playback commands will wait for it"
            FileHandle.standardError.write(Data("linnet: \(text)\n".utf8))
            report(text)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(patienceSeconds), execute: alarm)
        change()
        alarm.cancel()
    }
}
