/// What an ERROR message means for the pipeline. Only messages of the current generation get
/// here: the rest of a storm from a generation already left behind is dropped earlier.
extension PipelineLifecycle {
    /// Where an error came from, as far as the pipeline can tell.
    struct ErrorSource: Equatable, Sendable {
        /// The URI of the uridecodebin the error came from, read when it was posted.
        var originURI: String?
        /// It came from a uridecodebin playbin had created for the next track but not yet given
        /// its URI.
        var fromDecoderWithoutURI = false
        /// The oldest URI handed to playbin in about-to-finish that has not started yet.
        var handedOver: String?
        /// The URI audible now.
        var currentURI: String?
    }

    enum ErrorResponse: Equatable, Sendable {
        /// The rest of a set-aside URI's storm: already reported.
        case ignore
        /// playbin failed its own switch to `next` (it adds the next uridecodebin before giving it
        /// its URI, and a pipeline state change reaching it in between fails it): not the file's
        /// fault, and playbin cannot go on from a failed switch, so the audible track is reloaded
        /// at its position with `next` queued again.
        case retrySwitch(next: String)
        /// A track that is not audible (normally the queued next one) failed: playbin cannot go on
        /// from a failed next group (it stalls, with no end-of-stream), so the audible track is
        /// reloaded at its position; report the failure as one the current track survives, then
        /// feed back ``Event/setAside(uri:)``.
        case setAside(failed: String)
        /// The audible track failed: report it, stop, and reset to NULL with nothing loaded.
        case stop(failed: String?)
    }
}
