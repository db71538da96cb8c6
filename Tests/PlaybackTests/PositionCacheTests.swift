@testable import Playback
import Testing

/// The position cache never serves an answer that may predate a jump: a seek (an invalidation)
/// while a query is under way leaves nothing cached, so the next read asks the pipeline again.
@Suite struct PositionCacheTests {
    @Test func anAnswerFromBeforeAnInvalidationIsNotRemembered() {
        let cache = PositionCache()
        var queries = 0
        let stale = cache.value {
            queries += 1
            cache.invalidate()  // a seek lands while the query walks the pipeline
            return 1_000
        }
        #expect(stale == 1_000)
        #expect(cache.value { queries += 1; return 9_000 } == 9_000)
        #expect(queries == 2)
    }

    @Test func aFreshAnswerIsReusedUntilInvalidated() {
        let cache = PositionCache()
        var queries = 0
        #expect(cache.value { queries += 1; return 5 } == 5)
        // Within the 2 ms lifetime the same answer comes back without a query (on a loaded
        // machine the lifetime may pass; then a second query is the correct outcome too).
        let second = cache.value { queries += 1; return 5 }
        #expect(second == 5)
        cache.invalidate()
        let afterJump = cache.value { queries += 1; return 7 }
        #expect(afterJump == 7)
        #expect(queries >= 2)
    }

    @Test func aSettledAnswerIsKeptPastItsLifetimeUntilInvalidated() async throws {
        let cache = PositionCache()
        var queries = 0
        cache.settle()
        #expect(cache.value { queries += 1; return 42 } == 42)
        // Well past the 2 ms lifetime: a paused pipeline's position cannot have moved.
        try await Task.sleep(for: .milliseconds(5))
        #expect(cache.value { queries += 1; return 99 } == 42)
        #expect(queries == 1)
        cache.invalidate()
        #expect(cache.value { queries += 1; return 7 } == 7)
        #expect(queries == 2)
    }

    @Test func anAnswerFromBeforeSettlingIsNotKept() async throws {
        let cache = PositionCache()
        var queries = 0
        let moving = cache.value {
            queries += 1
            cache.settle()  // the pause lands while the query walks the pipeline
            return 1_000
        }
        #expect(moving == 1_000)
        #expect(cache.value { queries += 1; return 2_000 } == 2_000)
        try await Task.sleep(for: .milliseconds(5))
        #expect(cache.value { queries += 1; return 3_000 } == 2_000)
        #expect(queries == 2)
    }

    @Test func anInvalidationEndsTheSettledState() async throws {
        let cache = PositionCache()
        var queries = 0
        cache.settle()
        cache.invalidate()  // the pipeline was told to play: the position moves again
        #expect(cache.value { queries += 1; return 10 } == 10)
        try await Task.sleep(for: .milliseconds(5))
        #expect(cache.value { queries += 1; return 20 } == 20)
        #expect(queries == 2)
    }
}
