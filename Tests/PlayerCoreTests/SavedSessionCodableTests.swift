import Foundation
import PlayerCore
import Testing

/// session.json keeps the layout it had when positions were Int64 microseconds.
@Suite struct SavedSessionCodableTests {
    @Test func thePositionIsSavedAsWholeMicrosecondsUnderItsOldKey() throws {
        var queue = PlayQueue(seed: 3)
        _ = queue.replaceAll(with: ["file:///a.ogg", "file:///b.ogg"], startAt: 1)
        let session = SavedSession(queue: queue, position: .milliseconds(42_500), volume: 0.5, rate: 1.25)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any]
        #expect(object?["positionMicroseconds"] as? Int == 42_500_000)
        #expect(object?["version"] as? Int == 1)
        #expect(try JSONDecoder().decode(SavedSession.self, from: JSONEncoder().encode(session)) == session)
    }
}
