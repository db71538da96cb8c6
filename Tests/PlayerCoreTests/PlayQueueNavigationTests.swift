import Testing
@testable import PlayerCore

/// Next, Previous and natural ends in natural order, under every repeat mode.
@Suite struct PlayQueueNavigationTests {
    @Test(arguments: RepeatMode.allCases)
    func nextInTheMiddleMovesOnUnderEveryMode(repeatMode: RepeatMode) {
        var queue = makeQueue(4, current: 1, repeatMode: repeatMode)
        #expect(queue.canAdvance)
        #expect(queue.advance(.userNext) == .moved(to: queue.entries[2], wrapped: false))
        #expect(queue.currentIndex == 2)
    }

    @Test(arguments: [
        (RepeatMode.none, false), (.track, false), (.playlist, true),
    ])
    func nextAtTheLastEntryWrapsOnlyUnderRepeatPlaylist(repeatMode: RepeatMode, wraps: Bool) {
        var queue = makeQueue(4, current: 3, repeatMode: repeatMode)
        #expect(queue.canAdvance == wraps)
        let move = queue.advance(.userNext)
        if wraps {
            #expect(move == .moved(to: queue.entries[0], wrapped: true))
            #expect(queue.currentIndex == 0)
        } else {
            #expect(move == .unchanged)
            #expect(queue.currentIndex == 3)
        }
    }

    @Test(arguments: RepeatMode.allCases)
    func previousInTheMiddleMovesBackUnderEveryMode(repeatMode: RepeatMode) {
        var queue = makeQueue(4, current: 2, repeatMode: repeatMode)
        #expect(queue.canRetreat)
        #expect(queue.retreat() == .moved(to: queue.entries[1], wrapped: false))
    }

    @Test(arguments: [
        (RepeatMode.none, false), (.track, false), (.playlist, true),
    ])
    func previousAtTheFirstEntryWrapsOnlyUnderRepeatPlaylist(repeatMode: RepeatMode, wraps: Bool) {
        var queue = makeQueue(4, current: 0, repeatMode: repeatMode)
        #expect(queue.canRetreat == wraps)
        let move = queue.retreat()
        if wraps {
            #expect(move == .moved(to: queue.entries[3], wrapped: true))
            #expect(queue.currentIndex == 3)
        } else {
            #expect(move == .unchanged)
            #expect(queue.currentIndex == 0)
        }
    }

    @Test func naturalEndUnderRepeatNoneReachesTheEndAndKeepsCurrent() {
        var queue = makeQueue(3, current: 2, repeatMode: .none)
        #expect(queue.upcoming() == nil)
        #expect(queue.advance(.trackEnded) == .reachedEnd)
        #expect(queue.currentIndex == 2)
    }

    @Test func naturalEndUnderRepeatTrackRepeatsTheCurrentEntryAnywhere() {
        for index in 0..<3 {
            var queue = makeQueue(3, current: index, repeatMode: .track)
            let current = queue.entries[index]
            #expect(queue.upcoming() == current)
            #expect(queue.advance(.trackEnded) == .repeatedTrack(current))
            #expect(queue.currentIndex == index)
        }
    }

    @Test func naturalEndUnderRepeatPlaylistWrapsToTheFirstEntry() {
        var queue = makeQueue(3, current: 2, repeatMode: .playlist)
        #expect(queue.upcoming() == queue.entries[0])
        #expect(queue.advance(.trackEnded) == .moved(to: queue.entries[0], wrapped: true))
    }

    @Test func nextUnderRepeatTrackLeavesTheTrack() {
        var queue = makeQueue(3, current: 0, repeatMode: .track)
        #expect(queue.advance(.userNext) == .moved(to: queue.entries[1], wrapped: false))
    }

    @Test func playingThroughUnderRepeatNoneVisitsEachEntryInOrderThenEnds() {
        var queue = makeQueue(5, current: 0)
        var played = [queue.current]
        while case .moved(let entry, let wrapped) = queue.advance(.trackEnded) {
            #expect(!wrapped)
            played.append(entry)
        }
        #expect(played == queue.entries)
        #expect(queue.advance(.trackEnded) == .reachedEnd)
    }

    @Test func singleEntryUnderRepeatPlaylistWrapsOntoItself() {
        var queue = makeQueue(1, repeatMode: .playlist)
        let only = queue.entries[0]
        #expect(queue.advance(.userNext) == .moved(to: only, wrapped: true))
        #expect(queue.retreat() == .moved(to: only, wrapped: true))
        #expect(queue.advance(.trackEnded) == .moved(to: only, wrapped: true))
    }

    @Test func singleEntryUnderRepeatNoneCannotMove() {
        var queue = makeQueue(1)
        #expect(!queue.canAdvance && !queue.canRetreat)
        #expect(queue.advance(.userNext) == .unchanged)
        #expect(queue.retreat() == .unchanged)
        #expect(queue.advance(.trackEnded) == .reachedEnd)
    }

    @Test func changingRepeatModeKeepsTheCurrentEntry() {
        var queue = makeQueue(3, current: 2)
        #expect(queue.advance(.trackEnded) == .reachedEnd)
        queue.repeatMode = .playlist
        #expect(queue.currentIndex == 2)
        #expect(queue.advance(.trackEnded) == .moved(to: queue.entries[0], wrapped: true))
    }
}
