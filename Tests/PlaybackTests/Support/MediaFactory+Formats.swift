import Foundation
import TestSupport

extension MediaFactory {
    /// An MP3 (LAME) with `tags` (taginject syntax) in an ID3v2 tag written by id3v2mux.
    @discardableResult
    func mp3(_ name: String, buffers: Int = 20, tags: String) async throws -> String {
        try await encode(name, buffers: buffers, tags: tags, encoder: ["lamemp3enc", "!", "id3v2mux"])
    }

    /// A FLAC file with `tags` (taginject syntax) in its Vorbis comment.
    @discardableResult
    func flac(_ name: String, buffers: Int = 20, tags: String) async throws -> String {
        try await encode(name, buffers: buffers, tags: tags, encoder: ["flacenc"])
    }

    /// A bare MP3 stream (no tag) followed by nothing: the audio for a hand-made ID3v2 tag.
    func bareMP3(_ name: String, buffers: Int = 20) async throws -> [UInt8] {
        let location = path(name)
        let result = try await offPool { try ExternalTool.run("gst-launch-1.0", [
            "-q", "audiotestsrc", "num-buffers=\(buffers)", "!", "audioconvert", "!", "lamemp3enc", "!",
            "filesink", "location=\(location)",
        ]) }
        guard result.status == 0 else { throw MediaError("gst-launch failed: \(result.stderr)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: location)))
    }

    private func encode(_ name: String, buffers: Int, tags: String, encoder: [String]) async throws -> String {
        let location = path(name)
        let arguments = ["-q", "audiotestsrc", "num-buffers=\(buffers)", "!", "audioconvert", "!",
                         "taginject", "tags=\(tags)", "!"] + encoder + ["!", "filesink", "location=\(location)"]
        let result = try await offPool { try ExternalTool.run("gst-launch-1.0", arguments) }
        guard result.status == 0 else { throw MediaError("gst-launch failed: \(result.stderr)") }
        return uri(name)
    }

    /// An ID3v2.4 tag of `frames`. GStreamer's id3v2mux writes no USLT, SYLT or TXXX ReplayGain
    /// frames, so tests lay those out by the ID3v2.4 spec.
    static func id3v2Tag(_ frames: [[UInt8]]) -> [UInt8] {
        let body = frames.flatMap { $0 }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    /// A SYLT frame (UTF-8, times in milliseconds, content type lyrics).
    static func syltFrame(_ lines: [(milliseconds: UInt32, text: String)]) -> [UInt8] {
        var body: [UInt8] = [3] + Array("eng".utf8) + [2, 1, 0]
        for line in lines {
            body += Array(line.text.utf8) + [0]
            body += withUnsafeBytes(of: line.milliseconds.bigEndian) { Array($0) }
        }
        return frame("SYLT", body)
    }

    /// A USLT frame (UTF-8, no description).
    static func usltFrame(_ text: String) -> [UInt8] {
        frame("USLT", [3] + Array("eng".utf8) + [0] + Array(text.utf8))
    }

    /// A TXXX frame (UTF-8), as ReplayGain scanners write `REPLAYGAIN_TRACK_GAIN`.
    static func txxxFrame(_ description: String, _ value: String) -> [UInt8] {
        frame("TXXX", [3] + Array(description.utf8) + [0] + Array(value.utf8))
    }

    private static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
    }

    private static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7f), UInt8((value >> 14) & 0x7f), UInt8((value >> 7) & 0x7f), UInt8(value & 0x7f)]
    }
}
