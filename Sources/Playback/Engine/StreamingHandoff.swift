import Synchronization

/// The little state that GStreamer's streaming threads share with the loop thread: the pipeline
/// generation (to recognise messages from an abandoned pipeline) and the gapless queue that
/// "about-to-finish" consumes on a streaming thread. Everything else stays on the loop thread.
final class StreamingHandoff: Sendable {
    struct State {
        /// Bumped each time the pipeline is reset to NULL for a new URI.
        var generation: UInt64 = 0
        /// The URI queued with `setNext`, not yet handed to playbin.
        var next: String?
        /// URIs handed to playbin in about-to-finish whose STREAM_START has not been seen yet.
        var handedOver: [String] = []
        /// The URI whose data playbin is reading now: the one that is about to finish next.
        var feeding: String?
        /// Whether about-to-finish was already reported for `feeding`: playbin emits it again
        /// after every flushing seek near the end.
        var announced = false
        /// about-to-finish calls that found nothing queued since `beginSeek`.
        var drainsWithoutNext = 0
    }

    private let state = Mutex(State())

    var generation: UInt64 { state.withLock { $0.generation } }

    /// Starts a new generation feeding `uri`, forgetting the queue. Returns the new generation.
    func reset(feeding uri: String?) -> UInt64 {
        state.withLock { state in
            state.generation &+= 1
            state.next = nil
            state.handedOver.removeAll()
            state.feeding = uri
            state.announced = false
            return state.generation
        }
    }

    /// Whether a next URI is queued for about-to-finish to hand over.
    var hasNext: Bool { state.withLock { $0.next != nil } }

    func setNext(_ uri: String?) {
        state.withLock { $0.next = uri }
    }

    /// Called from about-to-finish: takes the queued URI, if any, as the one to feed next.
    /// `announce` is false for a repeat that hands nothing over.
    func takeNext() -> (generation: UInt64, finishing: String?, next: String?, announce: Bool) {
        state.withLock { state in
            let finishing = state.feeding
            guard let next = state.next else {
                state.drainsWithoutNext += 1
                defer { state.announced = true }
                return (state.generation, finishing, nil, !state.announced)
            }
            state.next = nil
            state.handedOver.append(next)
            state.feeding = next
            state.announced = false
            return (state.generation, finishing, next, true)
        }
    }

    /// Takes the queued next URI back before a seek, so about-to-finish cannot hand it over
    /// meanwhile, and tells whether one was already handed over (its STREAM_START not yet seen).
    func beginSeek() -> (queued: String?, handedOver: String?) {
        state.withLock { state in
            defer {
                state.next = nil
                state.drainsWithoutNext = 0
            }
            return (state.next, state.handedOver.first)
        }
    }

    /// Queues `next` again after a seek. Returns true when the track drained during the seek
    /// with nothing queued: playbin will not ask again unless it is flushed once more.
    func endSeek(restoring next: String?) -> Bool {
        state.withLock { state in
            state.next = next
            return next != nil && state.drainsWithoutNext > 0
        }
    }

    /// The oldest URI handed to playbin whose STREAM_START has not been seen yet.
    var firstHandedOver: String? { state.withLock { $0.handedOver.first } }

    /// Whether `uri` was handed to playbin and has not started yet.
    func isHandedOver(_ uri: String) -> Bool {
        state.withLock { $0.handedOver.contains(uri) }
    }

    /// Called at a gapless STREAM_START: the oldest URI handed over is the one now audible.
    func popHandedOver() -> String? {
        state.withLock { $0.handedOver.isEmpty ? nil : $0.handedOver.removeFirst() }
    }
}
