@testable import LinnetCore
import Testing

/// A read that started before a file's re-read is stale when it lands; later reads are not.
@Suite struct TagReadOrderTests {
    @Test func aReadStartedBeforeTheRereadIsStaleAndOthersAreNot() {
        let order = TagReadOrder()
        let firstScan = order.ticket()
        let reread = order.rereading(["file:///a.ogg"])
        let laterScan = order.ticket()
        #expect(order.areCurrent(["file:///a.ogg", "file:///b.ogg"], ticket: firstScan) == [false, true])
        #expect(order.areCurrent(["file:///a.ogg"], ticket: reread) == [true])
        #expect(order.areCurrent(["file:///a.ogg"], ticket: laterScan) == [true])
    }

    @Test func aSecondRereadMakesTheFirstStale() {
        let order = TagReadOrder()
        let first = order.rereading(["file:///a.ogg"])
        let second = order.rereading(["file:///a.ogg"])
        #expect(order.areCurrent(["file:///a.ogg"], ticket: first) == [false])
        #expect(order.areCurrent(["file:///a.ogg"], ticket: second) == [true])
    }

    @Test func withoutRereadsEveryReadIsCurrent() {
        let order = TagReadOrder()
        let ticket = order.ticket()
        #expect(order.areCurrent(["file:///a.ogg", "file:///b.ogg"], ticket: ticket) == [true, true])
    }
}
