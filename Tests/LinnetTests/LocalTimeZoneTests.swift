import ClockRules
import Foundation
import Testing
import TestSupport
import Timekeeping

/// Alarms follow the machine's zone as the C library reads it (`TZ` here, else
/// `/etc/localtime`), with no Foundation zone rules to load: the statically linked build could
/// not load them and took every zone for GMT, so 07:30 rang at 07:30 UTC.
@Suite struct LocalTimeZoneTests {
    @Test(.timeLimit(.minutes(1)))
    func alarmTimesAreReadInTheZoneOfTZAcrossADaylightSavingGap() async throws {
        let world = try LinnetWorld()
        world.extraEnvironment["TZ"] = "America/New_York"
        let quiet = try await world.makeTrack("quiet.ogg", title: "Quiet", seconds: 1)
        try await world.start(["--no-resume", "--paused", quiet])

        // A winter morning: 07:30 EST is 12:30 UTC, and the CLI says it in local time.
        let winter = try await world.cli("alarm", "2027-01-15T07:30", "--label", "winter")
        #expect(winter.status == 0, "\(winter.stderr)")
        #expect(winter.output.contains("2027-01-15 07:30"), "\(winter.output)")
        // 02:30 does not exist on 2027-03-14 (02:00 EST jumps to 03:00 EDT): it rings as the gap
        // ends, 03:00 EDT, which is 07:00 UTC.
        let gap = try await world.cli("alarm", "2027-03-14T02:30", "--label", "gap")
        #expect(gap.status == 0, "\(gap.stderr)")
        // A daily 07:30: its next ring is 07:30 in New York, whatever the test machine's zone.
        let before = WallInstant(Date())
        let daily = try await world.cli("alarm", "07:30", "--repeat", "daily", "--label", "daily")
        #expect(daily.status == 0, "\(daily.stderr)")
        let newYork = WallClockResolver(timeZone: try #require(TimeZone(identifier: "America/New_York")))
        let halfPastSeven = try #require(WallClockTime(hour: 7, minute: 30))
        let expectedDaily = try #require(newYork.nextFire(of: halfPastSeven, rule: .daily, after: before))

        let fires = Dictionary(uniqueKeysWithValues: try await world.listedAlarms().map { ($0.label, $0.nextFire) })
        #expect(fires["winter"] == 1_800_016_200)
        #expect(fires["gap"] == 1_805_007_600)
        #expect(fires["daily"] == Int64(expectedDaily.secondsSinceEpoch))
        world.kill()
    }
}
