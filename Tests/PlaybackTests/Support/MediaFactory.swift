import Foundation
import TestSupport

/// Makes the media a test plays, in a temporary directory of its own.
final class MediaFactory: @unchecked Sendable {
    static let sampleRate = 44_100
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("linnet-playback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func uri(_ name: String) -> String { directory.appendingPathComponent(name).absoluteString }

    /// Writes a 16-bit stereo 44.1 kHz WAV of `frames` frames whose samples `sample(frame)`
    /// gives, and returns its URI.
    @discardableResult
    func wav(_ name: String, frames: Int, sample: (Int) -> (Int16, Int16)) throws -> String {
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0..<frames {
            let (left, right) = sample(frame)
            samples.append(left)
            samples.append(right)
        }
        try WAVFile.encode(samples: samples).write(to: URL(fileURLWithPath: path(name)))
        return uri(name)
    }

    /// A WAV whose every frame encodes its own index (left: low 15 bits, right: the rest), so a
    /// capture shows exactly which frames were played.
    @discardableResult
    func indexedWAV(_ name: String, frames: Int, offset: Int = 0) throws -> String {
        try wav(name, frames: frames) { frame in WAVFile.encodeIndex(frame + offset) }
    }

    /// An Ogg/Vorbis file with `tags` in taginject syntax (spaces backslash-escaped inside
    /// escaped quotes, see PLATFORM-NOTES), `buffers` × 1024 frames of a sine.
    @discardableResult
    func ogg(_ name: String, buffers: Int = 20, tags: String) async throws -> String {
        let location = path(name)
        let result = try await offPool { try ExternalTool.run("gst-launch-1.0", [
            "-q", "audiotestsrc", "num-buffers=\(buffers)", "!", "audioconvert", "!",
            "taginject", "tags=\(tags)", "!", "vorbisenc", "!", "oggmux", "!",
            "filesink", "location=\(location)",
        ]) }
        guard result.status == 0 else { throw MediaError("gst-launch failed: \(result.stderr)") }
        return uri(name)
    }

    /// Bytes no demuxer recognises, behind a plausible name.
    @discardableResult
    func corrupt(_ name: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return uri(name)
    }

    /// A tiny PNG made by GStreamer's own encoder.
    func png(_ name: String) async throws -> [UInt8] {
        let location = path(name)
        let result = try await offPool { try ExternalTool.run("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=4,height=4", "!",
            "pngenc", "!", "filesink", "location=\(location)",
        ]) }
        guard result.status == 0 else { throw MediaError("gst-launch failed: \(result.stderr)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// A FLAC picture block (as Vorbis comments carry it in METADATA_BLOCK_PICTURE) holding a
    /// front cover, base64-encoded.
    static func pictureBlock(png: [UInt8]) -> String {
        var block: [UInt8] = []
        func append(_ value: Int) { block += withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) } }
        let mime = Array("image/png".utf8)
        append(3)  // front cover
        append(mime.count); block += mime
        append(0)  // no description
        append(4); append(4); append(24); append(0)  // width, height, depth, palette
        append(png.count); block += png
        return Data(block).base64EncodedString()
    }

    /// The audio sink description of a WAV capture into `name`; `sync` plays in real time.
    func captureSink(_ name: String, sync: Bool = false) -> String {
        "audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=44100,channels=2 ! wavenc ! "
            + "filesink location=\(path(name)) sync=\(sync)"
    }
}

struct MediaError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
