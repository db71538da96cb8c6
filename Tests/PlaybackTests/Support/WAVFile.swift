import Foundation

/// Just enough of WAV for tests: 16-bit stereo 44.1 kHz PCM.
enum WAVFile {
    static func encode(samples: [Int16]) -> Data {
        var data = Data()
        func append32(_ value: Int) { data += withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        func append16(_ value: Int) { data += withUnsafeBytes(of: UInt16(value).littleEndian) { Data($0) } }
        let byteCount = samples.count * 2
        data += Data("RIFF".utf8); append32(36 + byteCount); data += Data("WAVE".utf8)
        data += Data("fmt ".utf8); append32(16); append16(1); append16(2)
        append32(MediaFactory.sampleRate); append32(MediaFactory.sampleRate * 4); append16(4); append16(16)
        data += Data("data".utf8); append32(byteCount)
        // One copy of the whole body: appending sample by sample took seconds per minute of
        // audio in a debug build and kept the test run's few cooperative threads busy.
        let body = samples.map(\.littleEndian)
        body.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// The interleaved samples of a capture. Counts what is in the file rather than trusting
    /// the header's size field.
    static func samples(at path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = 12
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            let size = Int(data[offset + 4]) | Int(data[offset + 5]) << 8
                | Int(data[offset + 6]) << 16 | Int(data[offset + 7]) << 24
            if id == "data" {
                // The header's size once wavenc rewrote it at EOS; all that follows otherwise.
                let available = data.count - (offset + 8)
                let length = size <= available && size > 0 ? size : available
                let body = data[(offset + 8)..<(offset + 8 + length)]
                return stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
                    Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)
                }
            }
            offset += 8 + size + (size & 1)
        }
        throw MediaError("no data chunk in \(path)")
    }

    static func encodeIndex(_ index: Int) -> (Int16, Int16) {
        (Int16(index & 0x7FFF), Int16(index >> 15))
    }

    static func decodeIndex(left: Int16, right: Int16) -> Int {
        Int(left) | Int(right) << 15
    }
}
