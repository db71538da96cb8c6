@testable import DesktopClients
import DBus
import Foundation
import MPRIS

/// The calls a busy client makes to the clock features: alarms due within a second or two (many
/// at one instant), snoozes and dismissals through MPRIS Next/Stop while one rings, short sleep
/// timers and fades, 1 s Pomodoro phases, all interleaved with transport commands. The random
/// half of the fuzzer almost never gets an alarm to ring (a random `s` is rarely a time), so these
/// paths need their own weighting.
extension BusFuzzer {
    static let linnet: InterfaceName = "io.linnet.Linnet1"

    /// One clock-weighted call.
    mutating func clockCall() -> FuzzCall {
        switch Int.random(in: 0..<100, using: &factory.rng) {
        case 0..<30: return addAlarm(at: alarmTime())
        case 30..<38: return cancelAlarm()
        case 38..<44: return linnetCall("SetSleepTimer", sleepTimerArguments())
        case 44..<47: return linnetCall("CancelSleepTimer")
        case 47..<54: return linnetCall("StartPomodoro", [pomodoroOptions()])
        case 54..<57: return linnetCall("StopPomodoro")
        case 57..<61: return linnetCall("TogglePomodoro")
        // Next snoozes and Stop dismisses a ringing alarm; PlayPause/Pause dismiss it too, and
        // drive the Pomodoro when none rings.
        case 61..<71: return transport("Next")
        case 71..<81: return transport("Stop")
        case 81..<87: return transport("PlayPause")
        case 87..<89: return transport("Play")
        case 89..<91: return transport("Pause")
        case 91..<94: return linnetCall("ListAlarms")
        case 94..<97: return linnetCall("GetStatus")
        default:
            let name = factory.rng.pick(["SleepTimerActive", "SleepTimerRemaining", "PomodoroPhase", "PomodoroPaused", "FocusPolicy"])
            return FuzzCall(path: MPRISNames.objectPath, interface: .properties, member: "Get",
                            arguments: [.string(Self.linnet.rawValue), .string(name)], expectedError: nil, kind: "clock")
        }
    }

    /// Calls a busy client fires without waiting for each answer: a flood of alarms at one
    /// instant, or a storm of snooze/dismiss/transport/timer calls racing whatever rings.
    mutating func clockBurst() -> [FuzzCall] {
        if factory.rng.chance(0.5) {
            let instant = factory.rng.chance(0.7) ? sharedInstant() : alarmTime()
            return (0..<Int.random(in: 5...60, using: &factory.rng)).map { _ in addAlarm(at: instant) }
        }
        return (0..<Int.random(in: 5...30, using: &factory.rng)).map { _ in
            factory.rng.chance(0.6) ? clockCall() : validCommand()
        }
    }

    // MARK: Alarms

    private mutating func addAlarm(at time: String) -> FuzzCall {
        linnetCall("AddAlarm", [.string(time), alarmOptions(wallClock: !time.hasPrefix("+") && !time.contains("T"))])
    }

    /// Mostly times due within 1–3 s, often the very instant others use; sometimes later ones,
    /// wall-clock times, and inputs too big or malformed to be times.
    private mutating func alarmTime() -> String {
        switch Int.random(in: 0..<20, using: &factory.rng) {
        case 0..<6: return "+\(Int.random(in: 1...3, using: &factory.rng))s"
        case 6..<11: return sharedInstant()
        case 11, 12: return Self.localTimeOfDay(Date().addingTimeInterval(Double(Int.random(in: 1...3, using: &factory.rng))))
        case 13: return factory.rng.pick(["+10m", "+1h", "+90s", "07:30", "2099-01-01T00:00Z"])
        case 14: return factory.rng.pick(["+0s", "+-1s", "+", "25:00", "1970-01-01T00:00Z", "+1y", "+367d", "now"])
        case 15: return "+" + String(repeating: "9", count: Int.random(in: 20...100_000, using: &factory.rng)) + "s"
        case 16: return String(repeating: "07:30 ", count: Int.random(in: 1...20_000, using: &factory.rng))
        default: return "+\(Int.random(in: 1...2, using: &factory.rng))"
        }
    }

    /// An instant a second or two ahead, kept for a while so many alarms share it (and then
    /// ring back to back, waiting for each other).
    private mutating func sharedInstant() -> String {
        let now = Date()
        if clockState.instant.map({ $0 <= now.addingTimeInterval(0.3) }) ?? true || factory.rng.chance(0.05) {
            clockState.instant = now.addingTimeInterval(Double(Int.random(in: 1...3, using: &factory.rng)))
        }
        return clockState.instant!.formatted(.iso8601)
    }

    private mutating func alarmOptions(wallClock: Bool) -> DBusValue {
        var entries: [(String, DBusValue)] = []
        if factory.rng.chance(0.6) {
            // Short snoozes bring a snoozed alarm back while others still ring.
            entries.append(("snooze", factory.rng.pick([.int32(1), .uint32(2), .double(1), .string("1s"), .string("2s")])))
        }
        if factory.rng.chance(0.5) { entries.append(("ramp", factory.rng.pick([.int32(0), .double(0.5), .double(1), .string("0s")]))) }
        if factory.rng.chance(0.4) { entries.append(("label", .string(label()))) }
        if wallClock, factory.rng.chance(0.3) {
            entries.append(("repeat", .string(factory.rng.pick(["daily", "weekdays", "weekends", "mon,tue,wed,thu,fri,sat,sun", "never", "bogus"]))))
        }
        if factory.rng.chance(0.1) {
            entries.append(("sound", .string(factory.rng.chance(0.6) ? factory.rng.pick(files) : factory.rng.pick(bogusFiles + ["/nonexistent.ogg"]))))
        }
        if factory.rng.chance(0.03) { entries.append(("volume", .double(1))) }  // an unknown key
        if factory.rng.chance(0.03) { entries.append(("snooze", .double(.nan))) }
        return .stringVariantDictionary(entries)
    }

    private mutating func label() -> String {
        switch Int.random(in: 0..<10, using: &factory.rng) {
        case 0: return ""
        case 1: return "   "
        case 2: return String(repeating: "é🎵", count: Int.random(in: 1...20_000, using: &factory.rng))
        case 3: return factory.rng.chance(0.3) ? ValueFactory.giantString : String(repeating: "L", count: 65_536)
        case 4: return "line\nbreak\t<b>markup</b> & \"quotes\""
        default: return "Fuzz alarm \(factory.rng.next() % 1000)"
        }
    }

    private mutating func cancelAlarm() -> FuzzCall {
        let id: UInt32 = if !clockState.alarmIDs.isEmpty, factory.rng.chance(0.7) {
            factory.rng.pick(clockState.alarmIDs)
        } else {
            factory.rng.pick([0, 1, .max, UInt32.random(in: 0...200, using: &factory.rng)])
        }
        return linnetCall("CancelAlarm", [.uint32(id)])
    }

    // MARK: Timers

    private mutating func sleepTimerArguments() -> [DBusValue] {
        if factory.rng.chance(0.1) {
            return [.double(factory.double()), .double(factory.double())]
        }
        let duration = factory.rng.pick([0.05, 0.2, 0.5, 1, 1.5, 2, 3])
        let fade = factory.rng.pick([0, 0.1, 0.5, 1, 2, 5])  // a fade longer than the timer too
        return [.double(duration), .double(fade)]
    }

    private mutating func pomodoroOptions() -> DBusValue {
        func phase() -> DBusValue { factory.rng.pick([.int32(1), .uint32(1), .double(1), .string("1s"), .int32(2), .double(1.5)]) }
        var entries: [(String, DBusValue)] = [("work", phase()), ("short-break", phase()), ("long-break", phase())]
        if factory.rng.chance(0.8) { entries.append(("cycles", factory.rng.chance(0.5) ? .int32(Int32.random(in: 1...3, using: &factory.rng)) : .uint32(1))) }
        if factory.rng.chance(0.15) {
            let music = factory.rng.chance(0.7) ? factory.rng.pick(files) : factory.rng.pick(bogusFiles + [playlistPath])
            entries.append(("music", .string(music)))
        }
        if factory.rng.chance(0.1) { entries.append(("bell", .string(factory.rng.pick(files + bogusFiles)))) }
        if factory.rng.chance(0.05) { entries.append(("cycles", .int32(factory.rng.pick([0, -1, 101, .max])))) }
        if factory.rng.chance(0.05) { entries.append(("work", .double(factory.rng.pick([0, 0.5, .nan, .infinity, 1e12])))) }
        entries.shuffle(using: &factory.rng)
        return .stringVariantDictionary(entries)
    }

    // MARK: Helpers

    private func linnetCall(_ member: MemberName, _ arguments: [DBusValue] = []) -> FuzzCall {
        FuzzCall(path: MPRISNames.objectPath, interface: Self.linnet, member: member, arguments: arguments,
                 expectedError: nil, kind: "clock")
    }

    private func transport(_ member: MemberName) -> FuzzCall {
        FuzzCall(path: MPRISNames.objectPath, interface: MPRISNames.player, member: member, arguments: [],
                 expectedError: nil, kind: "clock")
    }

    /// `HH:MM:SS` on the local wall clock (linnet runs in the same zone as the test).
    static func localTimeOfDay(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// Remembers the ids AddAlarm answered, so CancelAlarm names real ones.
    mutating func noteReply(to call: FuzzCall, _ reply: [DBusValue]) {
        guard call.interface == Self.linnet, call.member == "AddAlarm", case .uint32(let id)? = reply.first else { return }
        clockState.alarmIDs.append(id)
        if clockState.alarmIDs.count > 200 { clockState.alarmIDs.removeFirst(100) }
    }
}

/// What the clock weighting remembers between calls.
struct ClockFuzzState {
    /// Alarm ids AddAlarm returned lately.
    var alarmIDs: [UInt32] = []
    /// The instant many alarms are set for, until it passes.
    var instant: Date?
}
