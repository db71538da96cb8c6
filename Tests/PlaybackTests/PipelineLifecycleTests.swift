@testable import Playback
import Testing

/// The pipeline's lifecycle as a value: events in, actions out, no GStreamer.
@Suite struct PipelineLifecycleTests {
    typealias Lifecycle = PipelineLifecycle

    /// A lifecycle taken through `events`, returning the actions of the last one.
    private static func after(_ events: [Lifecycle.Event], from start: Lifecycle = Lifecycle()) -> (Lifecycle, [Lifecycle.Action]) {
        var lifecycle = start
        var actions: [Lifecycle.Action] = []
        for event in events { actions = lifecycle.handle(event) }
        return (lifecycle, actions)
    }

    private static let playing: [Lifecycle.Event] = [.generationBegan, .startRequested, .prerolled]

    // MARK: Starting and ending

    @Test func aLoadedPipelinePrerollsBeforeSeeksGoThrough() {
        var lifecycle = Lifecycle()
        #expect(lifecycle.phase == .atNull)
        #expect(lifecycle.handle(.startRequested).isEmpty)
        #expect(lifecycle.phase == .prerolling)
        #expect(!lifecycle.isPrerolled)
        #expect(lifecycle.handle(.prerolled).isEmpty)
        #expect(lifecycle.isPrerolled)
        // Pausing a prerolled pipeline does not make it preroll again.
        _ = lifecycle.handle(.startRequested)
        #expect(lifecycle.phase == .prerolled)
    }

    @Test func anEndedPipelineStaysEndedAndPrerolledUntilANewGeneration() {
        var (lifecycle, _) = Self.after(Self.playing + [.endOfStream])
        #expect(lifecycle.phase == .ended(prerolled: true))
        #expect(lifecycle.hasEnded && lifecycle.isPrerolled)
        // A seek after the end prerolls again; playing still restarts from the start.
        _ = lifecycle.handle(.prerolled)
        _ = lifecycle.handle(.startRequested)
        #expect(lifecycle.hasEnded)
        _ = lifecycle.handle(.generationBegan)
        #expect(lifecycle.phase == .atNull)
        #expect(!lifecycle.hasEnded)
    }

    @Test func anEndBeforeThePrerollIsNotPrerolledUntilItComes() {
        var (lifecycle, _) = Self.after([.generationBegan, .startRequested, .endOfStream])
        #expect(lifecycle.phase == .ended(prerolled: false))
        #expect(!lifecycle.isPrerolled)
        _ = lifecycle.handle(.prerolled)
        #expect(lifecycle.phase == .ended(prerolled: true))
    }

    // MARK: Stopping

    @Test func aStopThatSucceedsLeavesThePipelineAtNull() {
        var (lifecycle, _) = Self.after(Self.playing)
        #expect(lifecycle.handle(.stopRequested) == [.setToNull])
        #expect(lifecycle.phase == .stopping(attempt: 1))
        #expect(lifecycle.handle(.setToNullReturned(succeeded: true)).isEmpty)
        #expect(lifecycle.handle(.engineVerdict(abandoned: false)).isEmpty)
        #expect(lifecycle.phase == .atNull)
        #expect(!lifecycle.isPrerolled)
    }

    @Test func aFailedStopIsRetriedAndASecondAttemptThatSucceedsGoesOn() {
        var (lifecycle, _) = Self.after(Self.playing + [.stopRequested])
        #expect(lifecycle.handle(.setToNullReturned(succeeded: false)) == [.setToNull])
        #expect(lifecycle.phase == .stopping(attempt: 2))
        #expect(lifecycle.handle(.setToNullReturned(succeeded: true)).isEmpty)
        #expect(lifecycle.handle(.engineVerdict(abandoned: false)).isEmpty)
        #expect(lifecycle.phase == .atNull)
    }

    @Test func aPipelineThatKeepsRefusingIsReportedAndRetiredWhenTheEngineReplacesIt() {
        var (lifecycle, _) = Self.after(Self.playing + [.stopRequested])
        for attempt in 2...Lifecycle.stopAttempts {
            #expect(lifecycle.handle(.setToNullReturned(succeeded: false)) == [.setToNull])
            #expect(lifecycle.phase == .stopping(attempt: attempt))
        }
        #expect(lifecycle.handle(.setToNullReturned(succeeded: false)).isEmpty)
        let reason = Lifecycle.StuckReason.refused(attempts: Lifecycle.stopAttempts)
        #expect(lifecycle.handle(.engineVerdict(abandoned: false)) == [.reportStuck(reason)])
        #expect(lifecycle.phase == .refusedToStop)
        #expect(reason.description.contains("could not stop"))
        #expect(lifecycle.handle(.engineVerdict(abandoned: true)) == [.retire])
        #expect(lifecycle.phase == .abandoned)
        #expect(lifecycle.isRetired)
    }

    @Test func aRefusalNoEngineTakesOverGoesOnAsIfStopped() {
        var (lifecycle, _) = Self.after(Self.playing + [.stopRequested] + Array(
            repeating: .setToNullReturned(succeeded: false), count: Lifecycle.stopAttempts))
        #expect(lifecycle.handle(.engineVerdict(abandoned: false)).count == 1)
        #expect(lifecycle.handle(.engineVerdict(abandoned: false)).isEmpty)
        #expect(lifecycle.phase == .atNull)
        #expect(!lifecycle.isRetired)
    }

    @Test func aStopTheWatchdogGaveUpOnRetiresWhenItReturnsWithoutBeingReportedAgain() {
        // The watchdog reported it from its own thread; the engine abandoned the pipeline.
        for succeeded in [true, false] {
            var (lifecycle, _) = Self.after(Self.playing + [.stopRequested])
            if !succeeded {
                for _ in 1..<Lifecycle.stopAttempts { _ = lifecycle.handle(.setToNullReturned(succeeded: false)) }
            }
            #expect(lifecycle.handle(.setToNullReturned(succeeded: succeeded)).isEmpty)
            #expect(lifecycle.handle(.engineVerdict(abandoned: true)) == [.retire])
            #expect(lifecycle.phase == .abandoned)
        }
    }

    @Test func aFailedAttemptIsRetriedEvenWhenTheEngineHasAlreadyGivenUp() {
        // The verdict is read only once the attempts are over, as the teardown would retry anyway.
        var (lifecycle, _) = Self.after(Self.playing + [.stopRequested])
        #expect(lifecycle.handle(.setToNullReturned(succeeded: false)) == [.setToNull])
    }

    @Test func nothingElseCutsIntoAStop() {
        var (lifecycle, _) = Self.after(Self.playing + [.stopRequested])
        for event: Lifecycle.Event in [.prerolled, .endOfStream, .generationBegan, .shutDownRequested, .stopRequested] {
            #expect(lifecycle.handle(event).isEmpty)
            #expect(lifecycle.phase == .stopping(attempt: 1))
        }
    }

    // MARK: Retirement

    @Test func aShutDownPipelineRetiresOnceAndIgnoresEverythingAfter() {
        var (lifecycle, _) = Self.after(Self.playing)
        #expect(lifecycle.handle(.shutDownRequested) == [.retire])
        #expect(lifecycle.phase == .shutDown)
        let later: [Lifecycle.Event] = [
            .shutDownRequested, .stopRequested, .generationBegan, .prerolled, .endOfStream,
            .streamStarted(uri: "a", isSwitch: false), .error(.init(originURI: "a", currentURI: "a")),
        ]
        for event in later { #expect(lifecycle.handle(event).isEmpty) }
        #expect(lifecycle.phase == .shutDown)
    }

    // MARK: Errors

    @Test func anErrorOfTheAudibleTrackStops() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(originURI: "a", currentURI: "a")
        #expect(lifecycle.handle(.error(error)) == [.respond(.stop(failed: "a"))])
        let unplaced = Lifecycle.ErrorSource(originURI: nil, currentURI: "a")
        #expect(lifecycle.handle(.error(unplaced)) == [.respond(.stop(failed: "a"))])
    }

    @Test func anErrorOfATrackNotAudibleIsSetAsideAndTheRestOfItsStormIgnoredUntilANewGeneration() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(originURI: "b", handedOver: "b", currentURI: "a")
        #expect(lifecycle.handle(.error(error)) == [.respond(.setAside(failed: "b"))])
        // The reload that answers it begins a generation, then records the URI set aside.
        _ = lifecycle.handle(.generationBegan)
        _ = lifecycle.handle(.reloadedToSeek(uri: "a"))
        _ = lifecycle.handle(.setAside(uri: "b"))
        #expect(lifecycle.handle(.error(error)) == [.respond(.ignore)])
        _ = lifecycle.handle(.generationBegan)
        #expect(lifecycle.handle(.error(error)) == [.respond(.setAside(failed: "b"))])
    }

    @Test func anErrorFromATrackNeverHandedOverIsSetAsideToo() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(originURI: "broken", handedOver: nil, currentURI: "a")
        #expect(lifecycle.handle(.error(error)) == [.respond(.setAside(failed: "broken"))])
    }

    @Test func aSwitchPlaybinFailsItselfIsRetriedTwiceThenCounts() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(fromDecoderWithoutURI: true, handedOver: "b", currentURI: "a")
        for _ in 0..<Lifecycle.switchRetries {
            #expect(lifecycle.handle(.error(error)) == [.respond(.retrySwitch(next: "b"))])
            // Each retry is a reload, which keeps the count.
            _ = lifecycle.handle(.generationBegan)
            _ = lifecycle.handle(.reloadedToSeek(uri: "a"))
            #expect(lifecycle.handle(.streamStarted(uri: "a", isSwitch: false)).isEmpty)
        }
        #expect(lifecycle.handle(.error(error)) == [.respond(.stop(failed: "a"))])
    }

    @Test func aTrackStartingResetsTheSwitchRetries() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(fromDecoderWithoutURI: true, handedOver: "b", currentURI: "a")
        _ = lifecycle.handle(.error(error))
        _ = lifecycle.handle(.error(error))
        #expect(lifecycle.failedSwitches == Lifecycle.switchRetries)
        #expect(lifecycle.handle(.streamStarted(uri: "b", isSwitch: true)) == [.announceTrack])
        #expect(lifecycle.failedSwitches == 0)
        #expect(lifecycle.handle(.error(error)) == [.respond(.retrySwitch(next: "b"))])
    }

    @Test func aDecoderWithoutURIAndNothingHandedOverIsTheAudibleTracksError() {
        var lifecycle = Lifecycle()
        let error = Lifecycle.ErrorSource(fromDecoderWithoutURI: true, handedOver: nil, currentURI: "a")
        #expect(lifecycle.handle(.error(error)) == [.respond(.stop(failed: "a"))])
    }

    // MARK: Stream starts

    @Test func theSeekReloadsOwnStartIsNotANewTrackButTheNextOneIs() {
        var lifecycle = Lifecycle()
        _ = lifecycle.handle(.reloadedToSeek(uri: "a"))
        #expect(lifecycle.handle(.streamStarted(uri: "a", isSwitch: false)).isEmpty)
        #expect(lifecycle.reloadedToSeek == nil)
        #expect(lifecycle.handle(.streamStarted(uri: "a", isSwitch: false)) == [.announceTrack])
    }

    @Test func aSwitchToTheReloadedURIIsANewTrack() {
        var lifecycle = Lifecycle()
        _ = lifecycle.handle(.reloadedToSeek(uri: "a"))
        #expect(lifecycle.handle(.streamStarted(uri: "a", isSwitch: true)) == [.announceTrack])
        #expect(lifecycle.reloadedToSeek == "a")
    }

    @Test func aNewGenerationForgetsTheSeekReload() {
        var lifecycle = Lifecycle()
        _ = lifecycle.handle(.reloadedToSeek(uri: "a"))
        _ = lifecycle.handle(.generationBegan)
        #expect(lifecycle.handle(.streamStarted(uri: "a", isSwitch: false)) == [.announceTrack])
    }
}

/// The gapless hand-off's wait, decided from GStreamer's states as values.
@Suite struct GaplessHandOffGateTests {
    typealias State = GaplessHandOffGate.ElementState

    private static func waits(_ current: State, _ pending: State, sinkPrerolled: Bool = true) -> Bool {
        GaplessHandOffGate.shouldWait(changeInFlight: (current, pending), sinkHasPrerolled: { sinkPrerolled })
    }

    @Test func aSettledPipelineNeedsNoWait() {
        #expect(!GaplessHandOffGate.shouldWait(changeInFlight: nil, sinkHasPrerolled: { true }))
    }

    @Test func aPipelineStartingUpIsWaitedFor() {
        #expect(Self.waits(.ready, .paused, sinkPrerolled: false))
        #expect(Self.waits(.null, .playing, sinkPrerolled: false))
        #expect(Self.waits(.ready, .playing))
    }

    @Test func aPrerolledPipelineGoingOnToPlayingIsWaitedFor() {
        #expect(Self.waits(.paused, .playing, sinkPrerolled: true))
    }

    @Test func aPipelineStillPrerollingIsNotWaitedFor() {
        // It may be waiting for this very thread's data.
        #expect(!Self.waits(.paused, .playing, sinkPrerolled: false))
    }

    @Test func aChangeDownIsNotWaitedFor() {
        // The engine resetting: it needs the streaming thread to return.
        #expect(!Self.waits(.playing, .paused))
        #expect(!Self.waits(.paused, .ready))
        #expect(!Self.waits(.paused, .null))
        #expect(!Self.waits(.playing, .voidPending))
    }

    @Test func theSinkIsAskedOnlyWhenItDecides() {
        var asked = 0
        _ = GaplessHandOffGate.shouldWait(changeInFlight: (.ready, .paused)) { asked += 1; return true }
        _ = GaplessHandOffGate.shouldWait(changeInFlight: (.playing, .paused)) { asked += 1; return true }
        #expect(asked == 0)
        _ = GaplessHandOffGate.shouldWait(changeInFlight: (.paused, .playing)) { asked += 1; return true }
        #expect(asked == 1)
    }
}
