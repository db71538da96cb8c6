@testable import LinnetCore
import Testing

/// The session save's timing rule as values: changes settle before a write, but a steady
/// stream of them cannot put the write off past the deadline of the oldest unwritten change.
@Suite struct SaveScheduleTests {
    private let start = ContinuousClock.now
    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    private func schedule() -> SaveSchedule {
        SaveSchedule(settleDelay: .milliseconds(300), maximumDelay: .milliseconds(900))
    }

    @Test func aLoneChangeIsWrittenOnceItSettles() {
        var schedule = schedule()
        #expect(schedule.changed(at: at(0)) == at(300))
    }

    @Test func changesCloseTogetherAreWrittenOnceTheLastSettles() {
        var schedule = schedule()
        _ = schedule.changed(at: at(0))
        _ = schedule.changed(at: at(200))
        #expect(schedule.changed(at: at(400)) == at(700))
    }

    @Test func aSteadyStreamOfChangesIsWrittenByTheDeadlineOfTheFirst() {
        var schedule = schedule()
        var due: [ContinuousClock.Instant] = []
        for change in stride(from: 0, through: 3000, by: 100) {
            due.append(schedule.changed(at: at(change)))
        }
        #expect(due.allSatisfy { $0 <= at(900) }, "a write was put off past 900 ms: \(due.map { start.duration(to: $0) })")
        #expect(due.last == at(900))
    }

    @Test func aWriteStartsTheNextChangesDeadlineAfresh() {
        var schedule = schedule()
        for change in stride(from: 0, through: 900, by: 100) { _ = schedule.changed(at: at(change)) }
        schedule.writing()
        #expect(schedule.oldestUnwrittenChange == nil)
        #expect(schedule.changed(at: at(950)) == at(1250))
        for change in stride(from: 1000, through: 2000, by: 100) { _ = schedule.changed(at: at(change)) }
        #expect(schedule.changed(at: at(2050)) == at(950 + 900))
    }
}
