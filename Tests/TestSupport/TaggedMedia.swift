import Foundation

/// Makes small tagged audio files with GStreamer's own encoders, as a user's library has them.
public enum TaggedMedia {
    /// Failure of the encoder pipeline.
    public struct Failure: Error, CustomStringConvertible {
        /// What gst-launch said.
        public let description: String
    }

    /// Writes an Ogg/Vorbis file of `buffers` × 1024 frames of a sine to `path`, carrying
    /// `tags` (tag name → value; digits-only values become unsigned integers, as
    /// `track-number` and `album-disc-number` must be). Runs on a
    /// thread of its own: gst-launch blocks, and the cooperative pool is small.
    public static func ogg(at path: String, tags: [String: String], buffers: Int = 5) async throws {
        let tagList = tags.sorted { $0.key < $1.key }.map { key, value in
            Int(value) != nil ? "\(key)=(uint)\(value)" : "\(key)=\"\(escaped(value))\""
        }.joined(separator: ",")
        var arguments = ["-q", "audiotestsrc", "num-buffers=\(buffers)", "!", "audioconvert", "!"]
        if !tagList.isEmpty { arguments += ["taginject", "tags=\(tagList)", "!"] }
        arguments += ["vorbisenc", "!", "oggmux", "!", "filesink", "location=\(path)"]
        let pipeline = arguments
        let result = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try ExternalTool.run("gst-launch-1.0", pipeline) }) }.start()
        }
        guard result.status == 0 else { throw Failure(description: "gst-launch failed: \(result.stderr)") }
    }

    /// gst-launch drops the whole tag list unless spaces (and quotes, backslashes) inside a
    /// quoted value are backslash-escaped (see PLATFORM-NOTES).
    private static func escaped(_ value: String) -> String {
        value.reduce(into: "") { result, character in
            if character == " " || character == "\"" || character == "\\" || character == "," { result.append("\\") }
            result.append(character)
        }
    }
}
