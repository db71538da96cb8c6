@testable import DesktopClients
import DBus
import Foundation
import MPRIS

/// SplitMix64: tiny, seedable and the same on every machine, so a printed seed replays a run
/// (the fuzzer's and the kill -9 test's).
struct FuzzRNG: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &self)! }
}

/// One method call the fuzzer sends, and what a correct service must answer when that is
/// knowable from the call alone.
struct FuzzCall {
    var path: ObjectPath
    var interface: InterfaceName?
    var member: MemberName
    var arguments: [DBusValue]
    /// The only acceptable error name, or nil when any success or documented error will do.
    var expectedError: ErrorName?
    /// A short label for the report.
    var kind: String
}

/// What the service exports, as the fuzzer knows it from the MPRIS spec: interface, method and
/// input signature. Used both to aim calls and to know which error a bad call deserves.
enum FuzzTargets {
    static let methods: [InterfaceName: [String: String]] = [
        MPRISNames.root: ["Raise": "", "Quit": ""],
        MPRISNames.player: [
            "Next": "", "Previous": "", "Pause": "", "PlayPause": "", "Stop": "", "Play": "",
            "Seek": "x", "SetPosition": "ox", "OpenUri": "s",
        ],
        MPRISNames.trackList: ["GetTracksMetadata": "ao", "AddTrack": "sob", "RemoveTrack": "o", "GoTo": "o"],
        MPRISNames.playlists: ["ActivatePlaylist": "o", "GetPlaylists": "uusb"],
        "io.linnet.Linnet1": [
            "AddAlarm": "sa{sv}", "ListAlarms": "", "CancelAlarm": "u", "SetSleepTimer": "dd", "CancelSleepTimer": "",
            "StartPomodoro": "a{sv}", "StopPomodoro": "", "TogglePomodoro": "", "GetStatus": "",
        ],
    ]

    static let properties: [InterfaceName: [String: (type: String, writable: Bool)]] = [
        MPRISNames.root: [
            "CanQuit": ("b", false), "Fullscreen": ("b", true), "CanSetFullscreen": ("b", false),
            "CanRaise": ("b", false), "HasTrackList": ("b", false), "Identity": ("s", false),
            "DesktopEntry": ("s", false), "SupportedUriSchemes": ("as", false), "SupportedMimeTypes": ("as", false),
        ],
        MPRISNames.player: [
            "PlaybackStatus": ("s", false), "LoopStatus": ("s", true), "Rate": ("d", true), "Shuffle": ("b", true),
            "Metadata": ("a{sv}", false), "Volume": ("d", true), "Position": ("x", false),
            "MinimumRate": ("d", false), "MaximumRate": ("d", false), "CanGoNext": ("b", false),
            "CanGoPrevious": ("b", false), "CanPlay": ("b", false), "CanPause": ("b", false),
            "CanSeek": ("b", false), "CanControl": ("b", false),
        ],
        MPRISNames.trackList: ["Tracks": ("ao", false), "CanEditTracks": ("b", false)],
        MPRISNames.playlists: [
            "PlaylistCount": ("u", false), "Orderings": ("as", false), "ActivePlaylist": ("(b(oss))", false),
        ],
        "io.linnet.Linnet1": [
            "SleepTimerActive": ("b", false), "SleepTimerRemaining": ("d", false), "PomodoroPhase": ("s", false),
            "PomodoroPaused": ("b", false), "FocusPolicy": ("s", true),
        ],
    ]

    static let otherInterfaces: [InterfaceName] = [.properties, .introspectable, .peer]
    static let bogusInterfaces: [InterfaceName] = [
        "org.mpris.MediaPlayer2.Nope", "org.example.Fuzz", "org.freedesktop.DBus.ObjectManager", "a.b",
    ]
    static let bogusMembers: [MemberName] = ["Frobnicate", "play", "PLAY", "SetVolume", "Get_All", "X", "Quit2"]
    static let bogusPaths: [ObjectPath] = [
        "/org/mpris", "/org/mpris/MediaPlayer2/Player", "/org/mpris/MediaPlayer2/TrackList/NoTrack",
        "/org/linnet/track/1", "/a/b/c", "/org/mpris/MediaPlayer2/x/y",
    ]
}

/// Builds random D-Bus types and values, favouring the edges where services break.
struct ValueFactory {
    var rng: FuzzRNG
    /// Track ids linnet published lately, so some hostile calls name real tracks.
    var knownTracks: [ObjectPath] = []
    /// Paths of real playable files.
    var realFiles: [String] = []

    static let giantString = String(repeating: "x", count: 1 << 20)

    mutating func basicType() -> DBusType {
        rng.pick([.byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath, .signature])
    }

    mutating func type(depth: Int = 0) -> DBusType {
        guard depth < 4, rng.chance(0.4) else { return rng.chance(0.15) ? .variant : basicType() }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return .array(type(depth: depth + 1))
        case 1: return .dictionary(key: basicType(), value: type(depth: depth + 1))
        default: return .structure((0..<Int.random(in: 1...3, using: &rng)).map { _ in type(depth: depth + 1) })
        }
    }

    mutating func string() -> String {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0: return ""
        case 1: return rng.chance(0.1) ? Self.giantString : String(repeating: "é🎵", count: Int.random(in: 1...5000, using: &rng))
        case 2: return "file:///nonexistent/\(rng.next()).ogg"
        case 3: return realFiles.isEmpty ? "file:///" : URL(fileURLWithPath: rng.pick(realFiles)).absoluteString
        case 4: return "http://"
        case 5: return "file:///etc/../etc/passwd"
        case 6: return "file:///tmp"
        case 7: return rng.pick(["None", "Track", "Playlist", "Alphabetical", "CreationDate", "UserDefined"])
        case 8: return rng.pick(["org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2", "", "org.mpris.MediaPlayer2.TrackList"])
        case 9: return rng.pick(["Volume", "Rate", "Metadata", "PlaybackStatus", "Position", "Tracks", "Nope"])
        case 10: return "data:audio/ogg;base64,AAAA"
        case 11: return "FILE:" + String(repeating: "/", count: Int.random(in: 0...9000, using: &rng))
        case 12: return "%00%ff" + String(rng.next(), radix: 36)
        default: return String(rng.next(), radix: 36)
        }
    }

    mutating func objectPath() -> ObjectPath {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return TrackID.noTrack.path
        case 1, 2: return knownTracks.isEmpty ? "/" : rng.pick(knownTracks)
        case 3: return rng.pick(TrackFuzz.mprisPaths)
        case 4: return ObjectPath(rawValue: "/org/linnet/track/\(rng.next() % 100_000)")!
        case 5: return "/"
        default:
            let parts = (0..<Int.random(in: 1...6, using: &rng)).map { _ in "p" + String(rng.next() % 1000) }
            return ObjectPath(rawValue: "/" + parts.joined(separator: "/"))!
        }
    }

    mutating func double() -> Double {
        rng.pick([.nan, .infinity, -.infinity, -0.0, 0, 1, 0.5, 2, -1, 1e308, -1e308, .leastNonzeroMagnitude,
                  Double.random(in: -10...10, using: &rng)])
    }

    mutating func int64() -> Int64 {
        rng.pick([0, 1, -1, .max, .min, 1_000_000, -1_000_000, Int64.random(in: -1_000_000_000...1_000_000_000, using: &rng)])
    }

    /// A random value of `type`; containers get 0–4 elements.
    mutating func value(of type: DBusType, depth: Int = 0) -> DBusValue {
        switch type {
        case .byte: return .byte(UInt8.random(in: 0...255, using: &rng))
        case .boolean: return .boolean(rng.chance(0.5))
        case .int16: return .int16(rng.pick([.min, .max, 0, -1]))
        case .uint16: return .uint16(rng.pick([.max, 0, 1]))
        case .int32: return .int32(rng.pick([.min, .max, 0, -1, Int32.random(in: -1000...1000, using: &rng)]))
        case .uint32: return .uint32(rng.pick([.max, 0, 1, 10, UInt32.random(in: 0...1000, using: &rng)]))
        case .int64: return .int64(int64())
        case .uint64: return .uint64(rng.pick([.max, 0, 1]))
        case .double: return .double(double())
        case .string: return .string(string())
        case .objectPath: return .objectPath(objectPath())
        case .signature: return .signature(DBusSignature([self.type()]))
        case .unixFD, .variant:
            return .variant(depth < 3 ? value(of: self.type(depth: depth + 1), depth: depth + 1) : .int32(7))
        case .array(let element):
            let count = depth < 3 ? Int.random(in: 0...4, using: &rng) : 0
            return .array(element, (0..<count).map { _ in value(of: element, depth: depth + 1) })
        case .dictionary(let key, let valueType):
            let count = depth < 3 ? Int.random(in: 0...3, using: &rng) : 0
            return .dictionary(key: key, value: valueType, (0..<count).map { _ in
                DBusDictionaryEntry(key: value(of: key, depth: depth + 1), value: value(of: valueType, depth: depth + 1))
            })
        case .structure(let fields):
            return .structure(fields.map { value(of: $0, depth: depth + 1) })
        }
    }

    /// `levels` variants, one inside the other, around an integer.
    static func nestedVariant(_ levels: Int) -> DBusValue {
        (0..<levels).reduce(DBusValue.int32(1)) { inner, _ in .variant(inner) }
    }

    /// `levels` arrays, one inside the other.
    static func nestedArray(_ levels: Int) -> DBusValue {
        var type = DBusType.int32
        var value = DBusValue.int32(1)
        for _ in 0..<levels {
            value = .array(type, [value])
            type = .array(type)
        }
        return value
    }

    /// Random arguments: sometimes none, sometimes many, sometimes pathological.
    mutating func arguments() -> [DBusValue] {
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: return []
        case 1: return [Self.nestedVariant(Int.random(in: 1...70, using: &rng))]
        case 2: return [Self.nestedArray(Int.random(in: 1...34, using: &rng))]
        case 3: return (0..<Int.random(in: 1...300, using: &rng)).map { _ in .int32(1) }
        default: return (0..<Int.random(in: 1...4, using: &rng)).map { _ in value(of: type()) }
        }
    }
}

enum TrackFuzz {
    static let mprisPaths: [ObjectPath] = [
        "/org/mpris", "/org/mpris/MediaPlayer2", "/org/mpris/MediaPlayer2/TrackList/NoTrack",
        "/org/mpris/MediaPlayer2/TrackList/NoTrack/x", "/org/mpris/MediaPlayer2/Track/1",
    ]
}
