@testable import Playback
import Testing

/// Seeks around the gapless hand-off as a value: no GStreamer.
@Suite struct SeekHandOffTests {
    typealias Seek = SeekHandOff.Seek

    @Test func seeksBeforeThePrerollMergeIntoOneThatIsReportedIfAnyWas() {
        var seeking = SeekHandOff()
        seeking.holdUntilPrerolled(Seek(microseconds: 1_000, reported: true))
        seeking.holdUntilPrerolled(Seek(microseconds: 2_000, reported: false))
        #expect(seeking.prerolled(rateDue: true) == .seek(Seek(microseconds: 2_000, reported: true)))
        #expect(seeking.pending == nil)
    }

    @Test func theNextURIIsHeldWhileASeekIsDueAndReleasedAfterThePreroll() {
        var seeking = SeekHandOff()
        seeking.holdUntilPrerolled(Seek(microseconds: 1_000, reported: false))
        #expect(seeking.queueNext("b", rateDue: false) == nil)
        #expect(seeking.heldNext == "b")
        // The preroll's seek takes the held URI along and restores it itself.
        let step = seeking.prerolled(rateDue: false)
        #expect(step == .seek(Seek(microseconds: 1_000, reported: false)))
        #expect(seeking.plan(queued: nil, handedOver: nil) == .seek(restoring: "b"))
        #expect(seeking.releaseHeldNext() == nil)
    }

    @Test func aNextURIHeldForARateChangeThatNeedsNoSeekGoesToPlaybinAtThePreroll() {
        var seeking = SeekHandOff()
        #expect(seeking.queueNext("b", rateDue: true) == nil)
        #expect(seeking.prerolled(rateDue: false) == SeekHandOff.PrerollStep.none)
        #expect(seeking.releaseHeldNext() == "b")
        #expect(seeking.releaseHeldNext() == nil)
    }

    @Test func withNoSeekDueTheNextURIGoesStraightToPlaybinAndReplacesAHeldOne() {
        var seeking = SeekHandOff()
        _ = seeking.queueNext("b", rateDue: true)
        #expect(seeking.queueNext("c", rateDue: false) == "c")
        #expect(seeking.heldNext == nil)
    }

    @Test func aSeekWithATrackHandedOverReloadsAndDropsTheQueuedOne() {
        var seeking = SeekHandOff()
        _ = seeking.queueNext("c", rateDue: true)
        #expect(seeking.plan(queued: "d", handedOver: "b") == .reload(next: "b"))
        #expect(seeking.heldNext == nil)
    }

    @Test func aSeekInPlaceRestoresTheQueuedURIOrElseTheHeldOne() {
        var seeking = SeekHandOff()
        #expect(seeking.plan(queued: "b", handedOver: nil) == .seek(restoring: "b"))
        _ = seeking.queueNext("c", rateDue: true)
        #expect(seeking.plan(queued: nil, handedOver: nil) == .seek(restoring: "c"))
        #expect(seeking.plan(queued: nil, handedOver: nil) == .seek(restoring: nil))
    }

    @Test func aUserSeekIsReportedAtItsPrerollWithItsTargetOthersAreNot() {
        var seeking = SeekHandOff()
        seeking.performed(Seek(microseconds: 5_000, reported: false))
        #expect(seeking.prerolled(rateDue: false) == SeekHandOff.PrerollStep.none)
        seeking.performed(Seek(microseconds: -20, reported: true))
        #expect(seeking.prerolled(rateDue: true) == .reportSeekCompleted(microseconds: 0))
        #expect(seeking.prerolled(rateDue: true) == .reapplyRate)
    }

    @Test func aReloadSeeksAtItsPrerollAndThenQueuesTheNextURI() {
        var seeking = SeekHandOff()
        seeking.reloaded(seekingTo: Seek(microseconds: 3_000, reported: false), next: "b")
        #expect(seeking.queueNext("c", rateDue: false) == nil, "a seek is still due")
        #expect(seeking.prerolled(rateDue: false) == .seek(Seek(microseconds: 3_000, reported: false)))
        #expect(seeking.plan(queued: nil, handedOver: nil) == .seek(restoring: "c"))
    }
}
