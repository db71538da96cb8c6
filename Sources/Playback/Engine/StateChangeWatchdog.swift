import Dispatch
import Synchronization

/// Notices a state change to NULL that does not return.
///
/// `gst_element_set_state(…, NULL)` joins every streaming thread, and a thread that never winds
/// down (in GStreamer 1.22, an http download cut short of its Content-Length can leave oggdemux
/// waiting under a pad's stream lock) blocks the caller for good. The caller's thread is the stuck
/// one then, so it cannot act: this one-shot timer, armed only around the call, runs `onStuck` on
/// a Dispatch thread instead. Nothing is armed while the pipeline idles.
enum StateChangeWatchdog {
    /// A queue of its own rather than a global one: a labelled queue may start a thread of its
    /// own, so Swift concurrency keeping the global pool busy cannot delay the alarm past the
    /// change it guards.
    private static let queue = DispatchQueue(label: "linnet.state-change-watchdog")

    /// Runs `change` on the calling thread and `onStuck` elsewhere if `change` is still running
    /// after `patience`.
    ///
    /// Returns once `change` has, and, when the alarm went off, once `onStuck` has too: a change
    /// that was only slow can return while `onStuck` is still deciding (replacing the pipeline),
    /// and the caller must see that decision, not go on as if nothing had been reported.
    static func guarding(
        patience: Duration, onStuck: @escaping @Sendable () -> Void, _ change: () -> Void
    ) {
        let alarm = Alarm()
        let item = DispatchWorkItem {
            guard alarm.fire() else { return }
            onStuck()
            alarm.reported.signal()
        }
        queue.asyncAfter(deadline: .now() + patience.dispatchInterval, execute: item)
        change()
        item.cancel()
        if !alarm.disarm() { alarm.reported.wait() }
    }

    /// Which of the change and the alarm came first.
    private final class Alarm: Sendable {
        private static let armed: UInt8 = 0, fired: UInt8 = 1, disarmed: UInt8 = 2
        private let state = Atomic<UInt8>(armed)
        /// Signalled once `onStuck` has returned.
        let reported = DispatchSemaphore(value: 0)

        /// True when the alarm goes off before the change returned.
        func fire() -> Bool {
            state.compareExchange(expected: Self.armed, desired: Self.fired, ordering: .acquiringAndReleasing).exchanged
        }

        /// True when the change returned before the alarm went off.
        func disarm() -> Bool {
            state.compareExchange(expected: Self.armed, desired: Self.disarmed, ordering: .acquiringAndReleasing).exchanged
        }
    }
}

extension Duration {
    /// The same span for Dispatch, to the nanosecond.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
