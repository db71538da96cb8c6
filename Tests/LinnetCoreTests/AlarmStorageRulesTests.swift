@testable import ClockRules
import Foundation
import LinnetCore
import Testing
import TestSupport
import Timekeeping

/// The alarm book's caps, the salvage of a damaged alarms.json, and background saves that
/// always end with the latest value.
@Suite struct AlarmStorageRulesTests {
    let utc = WallClockResolver(timeZone: TimeZone(identifier: "UTC")!)
    let now = WallInstant(secondsSinceEpoch: 1_800_000_000)

    private func options(_ label: String) -> Alarm.Options {
        var options = Alarm.Options()
        options.label = label
        return options
    }

    @Test func theBookRefusesTheAlarmPastTheCountAndTextCaps() throws {
        var book = AlarmBook()
        let label = String(repeating: "L", count: 1024)
        for _ in 0..<AlarmBook.maximumAlarms {
            _ = try book.add(.instant(now + .seconds(3600)), options: options(label), now: now, resolver: utc)
        }
        #expect(throws: AlarmError.self) { try book.add(.instant(now + .seconds(3600)), options: options("x"), now: now, resolver: utc) }
        do {
            _ = try book.add(.instant(now + .seconds(3600)), options: options("x"), now: now, resolver: utc)
        } catch {
            #expect(error.exceedsLimit)
        }
        var text = AlarmBook()
        let half = String(repeating: "T", count: AlarmBook.maximumTextBytes / 2)
        _ = try text.add(.instant(now + .seconds(3600)), options: options(half), now: now, resolver: utc)
        _ = try text.add(.instant(now + .seconds(3600)), options: options(half), now: now, resolver: utc)
        #expect(throws: AlarmError.self) { try text.add(.instant(now + .seconds(3600)), options: options("one more byte"), now: now, resolver: utc) }
    }

    @Test func salvageKeepsEveryWholeAlarmBeforeACutAndSkipsAMalformedOne() throws {
        var book = AlarmBook()
        for label in ["One", "Tw\"o {[", "Three"] {
            _ = try book.add(.instant(now + .seconds(3600)), options: options(label), now: now, resolver: utc)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(["version": 1]), as: UTF8.self)
            .replacingOccurrences(of: "}", with: ",\"state\":" + String(decoding: try encoder.encode(book), as: UTF8.self) + "}")
        let bytes = Array(json.utf8)
        let cut = try #require(json.range(of: "\"label\":\"Three\""))
        let truncated = Array(bytes[..<json.utf8.distance(from: json.utf8.startIndex, to: cut.lowerBound)])
        let salvaged = try #require(AlarmBook.salvage(from: truncated))
        #expect(salvaged.value.alarms.map(\.label) == ["One", "Tw\"o {["])
        #expect(salvaged.summary == "2 alarm(s)")

        let malformed = Array(json.replacingOccurrences(of: "\"label\":\"One\"", with: "\"label\":17").utf8)
        #expect(AlarmBook.salvage(from: malformed)?.value.alarms.map(\.label) == ["Tw\"o {[", "Three"])
        #expect(AlarmBook.salvage(from: Array("not json at all".utf8)) == nil)
    }

    @Test func backgroundSavesEndWithTheLatestValue() async throws {
        let dir = try ScratchDirectory()
        let store = StateStore<[Int]>(fileURL: URL(fileURLWithPath: dir.path("state/values.json")))
        let latest = Recorder<Int>()
        let failures = Recorder<String>()
        for value in 1...500 {
            latest.record(value)
            store.saveInBackground({ latest.values }) { failures.record("\($0)") }
        }
        await store.backgroundSavesSettled()
        guard case .loaded(let saved) = store.load() else {
            Issue.record("nothing saved")
            return
        }
        #expect(saved == Array(1...500))
        #expect(failures.values.isEmpty)
        #expect(store.finishBackgroundSaves())
    }
}
