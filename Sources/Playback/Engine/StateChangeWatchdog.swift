import Dispatch

/// Notices a state change to NULL that does not return.
///
/// `gst_element_set_state(…, NULL)` joins every streaming thread, and a thread that never winds
/// down (in GStreamer 1.22, an http download cut short of its Content-Length can leave oggdemux
/// waiting under a pad's stream lock) blocks the caller for good. The caller's thread is
/// the stuck one then, so it cannot act: this one-shot timer, armed only around the call, runs
/// `onStuck` on a Dispatch thread instead. Nothing is armed while the pipeline idles.
enum StateChangeWatchdog {
    /// A queue of its own rather than a global one: a labelled queue may start a thread of its
    /// own, so Swift concurrency keeping the global pool busy cannot delay the alarm past the
    /// change it guards.
    private static let queue = DispatchQueue(label: "linnet.state-change-watchdog")

    /// Runs `change` on the calling thread and `onStuck` elsewhere if `change` is still running
    /// after `patience`.
    static func guarding(
        patience: Duration, onStuck: @escaping @Sendable () -> Void, _ change: () -> Void
    ) {
        let alarm = DispatchWorkItem(block: onStuck)
        queue.asyncAfter(deadline: .now() + patience.dispatchInterval, execute: alarm)
        change()
        alarm.cancel()
    }
}

extension Duration {
    /// The same span for Dispatch, to the nanosecond.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
