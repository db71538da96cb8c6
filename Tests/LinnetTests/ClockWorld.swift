import DBus
import Foundation
import MPRIS
import TestSupport

/// What the clock tests need around a ``LinnetWorld``: the `io.linnet.Linnet1` proxy, the CLI,
/// and WAV captures of linnet's two streams.
extension LinnetWorld {
    static let linnetInterface: InterfaceName = "io.linnet.Linnet1"

    /// linnet's extension interface.
    var clock: DBusProxy {
        DBusProxy(connection: client, destination: Self.playerName, path: MPRISNames.objectPath, interface: Self.linnetInterface)
    }

    /// Where the effects stream (alarms, bells) is captured.
    var effectsCapture: URL { home.appendingPathComponent("effects.wav") }

    /// Where the music is captured when a test asks for it.
    var musicCapture: URL { home.appendingPathComponent("music.wav") }

    /// A clock-synced WAV capture bin writing to `file`. `append` keeps every sound the engine
    /// starts (it reopens the sink each time) as its own WAV in the file.
    static func captureSink(_ file: URL, append: Bool) -> String {
        "audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=44100,channels=2 ! wavenc ! "
            + "filesink sync=true append=\(append) location=\(file.path)"
    }

    /// The arguments sending alarms and bells into ``effectsCapture``.
    var effectsArguments: [String] { ["--effects-sink", Self.captureSink(effectsCapture, append: true)] }

    /// Runs `linnet ARGUMENTS` (a client command) against this world's bus.
    @discardableResult
    func cli(_ arguments: String...) async throws -> ToolResult {
        let environment = self.environment
        let binary = Self.binary.path
        return try await offPool { try ExternalTool.run(binary, arguments, environment: environment) }
    }

    /// Signals of the extension interface named `member`.
    func clockSignals(_ member: String) -> [DBusSignal] {
        signals.values.filter { $0.interface == Self.linnetInterface && $0.member.rawValue == member }
    }

    /// The alarms as ListAlarms reports them: (id, label, state).
    func listedAlarms() async throws -> [(id: UInt32, label: String, state: String, nextFire: Int64)] {
        guard case .array(_, let entries)? = try await clock.call("ListAlarms").first else { return [] }
        return entries.compactMap { entry in
            guard case .structure(let fields) = entry, case .uint32(let id) = fields[0], case .string(let label) = fields[1],
                case .int64(let fire) = fields[2], case .string(let state) = fields[5]
            else { return nil }
            return (id, label, state, fire)
        }
    }
}

/// The sounds in a WAV capture written with `append=true`: wavenc starts each sound with a
/// header whose data size is a placeholder, so each such header marks one sound the engine
/// started; the samples up to the next header are what it played.
struct CapturedSounds: Sendable {
    /// Interleaved stereo samples of each sound, in order.
    let sounds: [[Int16]]

    static let sampleRate = 44_100

    /// Reads `file` on a thread of its own: a capture grows by megabytes, and parsing it on
    /// Swift's two cooperative threads while polling would starve every other test.
    static func read(_ file: URL) async throws -> CapturedSounds {
        try await offPool { CapturedSounds(file) }
    }

    init(_ file: URL) {
        guard let data = try? Data(contentsOf: file) else {
            sounds = []
            return
        }
        // Headers: "RIFF" at a 2-byte boundary with "WAVE" 8 bytes on; the data size at 40.
        var headers: [(start: Int, placeholder: Bool)] = []
        var from = data.startIndex
        while let found = data.range(of: Data("RIFF".utf8), in: from..<data.endIndex) {
            let index = found.lowerBound
            from = found.upperBound
            guard index + 44 <= data.endIndex, (index - data.startIndex) % 2 == 0,
                data[(index + 8)..<(index + 12)] == Data("WAVE".utf8)
            else { continue }
            let size = data[(index + 40)..<(index + 44)].reversed().reduce(0) { $0 << 8 | Int($1) }
            headers.append((index, size == 0x7FFF_0000))
            from = index + 44
        }
        var sounds: [[Int16]] = []
        for (position, header) in headers.enumerated() where header.placeholder {
            let start = header.start + 44
            var end = position + 1 < headers.count ? headers[position + 1].start : data.endIndex
            end -= (end - start) % 2
            guard end > start else {
                sounds.append([])
                continue
            }
            sounds.append(data[start..<end].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
        }
        self.sounds = sounds
    }

    /// Seconds of each sound.
    var durations: [Double] { sounds.map { Double($0.count / 2) / Double(Self.sampleRate) } }

    /// Root mean square of `samples` between `from` and `to` seconds (negative: from the end).
    static func rms(_ samples: [Int16], from: Double, to: Double) -> Double {
        let frames = samples.count / 2
        func frame(_ seconds: Double) -> Int {
            let value = Int(seconds * Double(sampleRate))
            return max(0, min(frames, value < 0 || seconds < 0 ? frames + value : value))
        }
        let (start, end) = (frame(from), frame(to))
        guard end > start else { return 0 }
        var sum = 0.0
        for index in (start * 2)..<(end * 2) {
            let value = Double(samples[index])
            sum += value * value
        }
        return (sum / Double((end - start) * 2)).squareRoot()
    }
}
