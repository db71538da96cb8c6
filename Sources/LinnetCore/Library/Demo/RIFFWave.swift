/// Writes 16-bit stereo 44.1 kHz PCM WAV files with a RIFF `LIST`/`INFO` chunk of tags.
///
/// The `LIST` chunk goes before `data`: GStreamer's wavparse reads chunks in order while
/// looking for the samples and may never see one placed after them.
enum RIFFWave {
    static let sampleRate = 44_100
    static let channels = 2
    static let bytesPerFrame = 4

    /// An INFO tag: a four-letter id such as `INAM` (title) and its text.
    struct Tag {
        let id: String
        let value: String
    }

    /// Everything before the sample bytes, for `frameCount` frames.
    static func header(frameCount: Int, tags: [Tag]) -> [UInt8] {
        var info: [UInt8] = Array("INFO".utf8)
        for tag in tags {
            // INFO strings are NUL-terminated and padded to an even size.
            var value = Array(tag.value.utf8) + [0]
            let size = value.count
            if value.count % 2 == 1 { value.append(0) }
            info += Array(tag.id.utf8.prefix(4)) + le32(size) + value
        }
        let dataSize = frameCount * bytesPerFrame
        var bytes: [UInt8] = []
        bytes += Array("RIFF".utf8) + le32(4 + (8 + 16) + (8 + info.count) + (8 + dataSize)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(sampleRate)
        bytes += le32(sampleRate * bytesPerFrame) + le16(bytesPerFrame) + le16(16)
        bytes += Array("LIST".utf8) + le32(info.count) + info
        bytes += Array("data".utf8) + le32(dataSize)
        return bytes
    }

    /// A whole file: the header and the interleaved little-endian samples.
    static func file(interleaved samples: [Int16], tags: [Tag]) -> [UInt8] {
        var bytes = header(frameCount: samples.count / channels, tags: tags)
        samples.map(\.littleEndian).withUnsafeBytes { bytes += $0 }
        return bytes
    }

    private static func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func le16(_ value: Int) -> [UInt8] {
        (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
