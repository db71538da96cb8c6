import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// A track start is one change for clients: one PropertiesChanged carrying its Metadata,
    /// complete (tags and the art decided once: embedded over a folder's cover.jpg), and one
    /// notification replacing the last, however many places (the tag scan, the playing
    /// engine's tags, the folder) know something about the file.
    @Suite(.serialized) struct TrackStartSignalTests {
        /// A tiny PNG from GStreamer's own encoder, as a FLAC picture block (Vorbis comments carry
        /// cover art as METADATA_BLOCK_PICTURE), base64-encoded.
        private static func pictureBlock(in directory: URL) async throws -> String {
            let location = directory.appendingPathComponent("source.png").path
            let made = try await offPool { try ExternalTool.run("gst-launch-1.0", [
                "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=4,height=4", "!", "pngenc", "!",
                "filesink", "location=\(location)",
            ]) }
            guard made.status == 0 else { throw TestSupportError("pngenc failed: \(made.stderr)") }
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: location)))
            try FileManager.default.removeItem(atPath: location)
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

        /// A one-second Ogg/Vorbis file at `path`, titled `title`, with `picture` embedded.
        private static func track(_ path: String, title: String, picture: String?) async throws {
            // Spaces inside quoted values must be escaped, or gst-launch drops the tags.
            var tags = #"title="\#(title.replacingOccurrences(of: " ", with: #"\ "#))",artist="Tester""#
            if let picture { tags += #",extended-comment="METADATA_BLOCK_PICTURE=\#(picture)""# }
            let tagList = tags
            let made = try await offPool { try ExternalTool.run("gst-launch-1.0", [
                "-q", "audiotestsrc", "num-buffers=43", "!", "audio/x-raw,rate=44100", "!", "audioconvert", "!",
                "taginject", "tags=\(tagList)", "!", "vorbisenc", "!", "oggmux", "!", "filesink", "location=\(path)",
            ]) }
            guard made.status == 0 else { throw TestSupportError("gst-launch failed: \(made.stderr)") }
        }

        @Test(.timeLimit(.minutes(3)))
        func twentyTrackStartsAreOneMetadataChangeAndOneNotificationEach() async throws {
            let world = try LinnetWorld()
            let server = try RecordingNotificationServer(address: world.bus.address)
            let picture = try await Self.pictureBlock(in: world.media)
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
            // Embedded art beside a cover.jpg (embedded wins), a folder's cover.jpg only, no art.
            let kinds = ["embedded", "folder", "none"]
            for kind in kinds {
                let folder = world.media.appendingPathComponent(kind)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                if kind != "none" { try Data(jpeg).write(to: folder.appendingPathComponent("cover.jpg")) }
            }
            var paths: [String] = []
            var expectedArt: [String: String] = [:]  // title → "embedded" / "folder" / "none"
            for index in 0..<20 {
                let kind = kinds[index % 3]
                let title = "Track \(index)"
                let path = world.media.appendingPathComponent("\(kind)/t\(index).ogg").path
                try await Self.track(path, title: title, picture: kind == "embedded" ? picture : nil)
                paths.append(path)
                expectedArt[title] = kind
            }
            try await world.start(["--no-resume", "--paused", "--notify"] + paths)
            // What linnet published before taking its name (its first state, read by clients
            // when the name appears) is not a change anyone saw; the bus delivers it before
            // answering the name check that ended `start`.
            let onTheBus = world.signals.values.count
            // Reading ahead is what keeps a start complete; on a busy machine a tag scan can take
            // longer than a one-second track, so the test lets every scan answer first and
            // checks the publication rule itself.
            try await world.waitForScannedQueue()
            try await world.playerctl("play")
            try await world.waitUntil("the last track to end", timeout: .seconds(90)) {
                guard try await world.title() == "Track 19" else { return false }
                return try await world.player("PlaybackStatus") == .string("Stopped")
            }
            // A round trip after the last change: every signal sent before it has arrived.
            _ = try await world.player("PlaybackStatus")

            let owner = try await world.client.nameOwner(LinnetWorld.playerName)
            let metadataChanges = world.signals.values.dropFirst(onTheBus).compactMap { signal -> DBusValue? in
                guard signal.sender == owner, signal.member == "PropertiesChanged", signal.arguments.count > 1,
                      signal.arguments[0] == .string(MPRISNames.player.rawValue) else { return nil }
                return signal.arguments[1]["Metadata"]
            }
            let titles = metadataChanges.map { metadata -> String in
                if case .string(let title)? = metadata["xesam:title"] { return title }
                return "?"
            }
            // The first track appeared complete (its tags were read before linnet took its
            // name), or with its file name and then once complete; every later start is
            // exactly one change.
            let started = (titles.first == "Track 0" ? 0 : 1)..<20
            #expect(titles == started.map { "Track \($0)" }, "\(titles)")
            for metadata in metadataChanges {
                guard case .string(let title)? = metadata["xesam:title"], let kind = expectedArt[title] else { continue }
                let art: String? = if case .string(let uri)? = metadata["mpris:artUrl"] { uri } else { nil }
                switch kind {
                case "embedded": #expect(art?.hasSuffix(".png") == true && art?.contains("/cache/linnet/art/") == true, "\(title): \(art ?? "none")")
                case "folder": #expect(art?.hasSuffix("/folder/cover.jpg") == true, "\(title): \(art ?? "none")")
                default: #expect(art == nil, "\(title): \(art ?? "none")")
                }
            }

            let bubbles = server.notifications
            #expect(bubbles.map(\.summary) == (0..<20).map { "Track \($0)" }, "\(bubbles.map(\.summary))")
            #expect(Set(bubbles.map(\.id)).count == 1, "one bubble, replaced in place")
            #expect(bubbles.dropFirst().allSatisfy { $0.replacesID == bubbles[0].id })
            for bubble in bubbles {
                let image: String? = if case .string(let path)? = bubble.hints["image-path"] { path } else { nil }
                switch expectedArt[bubble.summary] {
                case "embedded": #expect(image?.hasSuffix(".png") == true, "\(bubble.summary): \(image ?? "none")")
                case "folder": #expect(image?.hasSuffix("/folder/cover.jpg") == true, "\(bubble.summary): \(image ?? "none")")
                default: #expect(image == nil, "\(bubble.summary): \(image ?? "none")")
                }
            }
            world.kill()
        }
    }
}
