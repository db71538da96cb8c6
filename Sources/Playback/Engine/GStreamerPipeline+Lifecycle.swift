internal import CGStreamer

/// Driving the ``PipelineLifecycle``: its actions performed, on the loop thread.
extension GStreamerPipeline {
    /// Sets the pipeline to NULL, which waits for every streaming thread to stop, retrying a
    /// change that fails. A wait that outlasts the settings' patience, or a change that keeps
    /// failing, hands the engine over to a new pipeline; if this one is then abandoned, it is torn
    /// down and false tells the caller to stop there.
    @discardableResult
    func stopPipeline() -> Bool {
        var actions = lifecycle.handle(.stopRequested)
        guard actions == [.setToNull] else { return !isRetired }
        positionCache.invalidate()
        StateChangeWatchdog.guarding(patience: settings.stuckPatience, onStuck: { [stuck, settings, owner = WeakPipeline(self)] in
            if let pipeline = owner.value {
                stuck(pipeline, PipelineLifecycle.StuckReason.didNotFinish(patience: settings.stuckPatience).description)
            }
        }) {
            while actions == [.setToNull] {
                let succeeded = gst_element_set_state(playbin, GST_STATE_NULL) != GST_STATE_CHANGE_FAILURE
                actions = lifecycle.handle(.setToNullReturned(succeeded: succeeded))
            }
        }
        // Read once the watchdog is done with the change: any report it made is answered by now.
        perform(actions + lifecycle.handle(.engineVerdict(abandoned: isAbandoned)))
        return !lifecycle.isRetired
    }

    /// Performs what the lifecycle asks for, feeding back what it needs to know.
    func perform(_ actions: [PipelineLifecycle.Action]) {
        for action in actions {
            switch action {
            case .setToNull:
                // Only ever asked for in answer to a stop, whose attempts `stopPipeline` runs
                // under the watchdog.
                assertionFailure("a change to NULL asked for outside stopPipeline")
            case .reportStuck(let reason):
                stuck(self, reason.description)
                perform(lifecycle.handle(.engineVerdict(abandoned: isAbandoned)))
            case .retire:
                releaseOutput()
            case .respond, .announceTrack:
                // Answers to an error or a stream start, acted on where those are handled.
                break
            }
        }
    }
}

/// A weak reference to the pipeline that closures on streaming threads can carry without
/// touching the engine's reference count there.
final class WeakPipeline: Sendable {
    weak let value: GStreamerPipeline?
    init(_ value: GStreamerPipeline) { self.value = value }
}
