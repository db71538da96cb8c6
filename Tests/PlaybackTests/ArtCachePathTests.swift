import Foundation
import Playback
import Testing

/// Tag text never steers where linnet writes: embedded art is stored under the cache directory
/// by the SHA-256 of its bytes, whatever the picture's MIME type, description or the track's
/// title say.
@Suite struct ArtCachePathTests {
    /// A FLAC picture block with attacker-chosen MIME type and description.
    private static func hostilePictureBlock(image: [UInt8], mime: String, description: String) -> String {
        var block: [UInt8] = []
        func append(_ value: Int) { block += withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) } }
        append(3)
        append(mime.utf8.count); block += Array(mime.utf8)
        append(description.utf8.count); block += Array(description.utf8)
        append(4); append(4); append(24); append(0)
        append(image.count); block += image
        return Data(block).base64EncodedString()
    }

    @Test func hostilePictureTagsAreStoredByContentHashInsideTheCache() async throws {
        let media = try MediaFactory()
        let png = try await media.png("source.png")
        let block = Self.hostilePictureBlock(
            image: png, mime: "image/png/../../../../../../tmp/linnet-art-escape", description: "../../../../tmp/linnet-desc-escape")
        let uri = try await media.ogg(
            "hostile.ogg", tags: #"title="../../../../tmp/linnet-title-escape",extended-comment="METADATA_BLOCK_PICTURE="# + block + #"""#)
        let cache = ArtCache(directory: media.path("cache/linnet/art"))
        let engine = GStreamerEngine(output: .description("fakesink"), artCache: cache)
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)

        let scanned = try await MetadataScanner(artCache: cache).scan(uri)
        let arts = Set(log.events.compactMap(\.metadata).compactMap(\.1.artURI) + [scanned.metadata.artURI].compactMap { $0 })
        #expect(!arts.isEmpty, "the embedded picture was not stored at all")
        for art in arts {
            let path = try #require(URL(string: art)).path
            let name = String(path.dropFirst(cache.directory.count + 1))
            #expect(path.hasPrefix(cache.directory + "/"), "art written outside the cache: \(path)")
            let stem = name.split(separator: ".").first.map(String.init) ?? ""
            #expect(stem.count == 64 && stem.allSatisfy(\.isHexDigit), "art not named by its hash: \(name)")
            #expect(!name.contains("/") && !name.contains(".."))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory).count == 1)
        for escape in ["/tmp/linnet-art-escape", "/tmp/linnet-desc-escape", "/tmp/linnet-title-escape"] {
            #expect(!FileManager.default.fileExists(atPath: escape), "\(escape) was created")
        }
    }
}
