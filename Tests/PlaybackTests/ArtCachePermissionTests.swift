import Foundation
import Glibc
import Playback
import Testing
import TestSupport

/// Cached art is as private as linnet's state (issue 16): created directories 0700, files 0600,
/// whatever the umask.
@Suite struct ArtCachePermissionTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test func storedArtAndTheDirectoriesMadeForItArePrivate() throws {
        let scratch = try ScratchDirectory()
        let previous = umask(0o022)
        defer { umask(previous) }
        let cache = ArtCache(directory: scratch.path("cache/linnet/art"))
        let uri = try #require(cache.store(Array("not really a png".utf8), mediaType: "image/png"))
        let file = try #require(URL(string: uri)).path
        #expect(Self.mode(file) == 0o600)
        for directory in ["cache", "cache/linnet", "cache/linnet/art"] {
            #expect(Self.mode(scratch.path(directory)) == 0o700, "\(directory)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not really a png".utf8))
        // The same image again is the same file; nothing else is left in the directory.
        #expect(cache.store(Array("not really a png".utf8), mediaType: "image/png") == uri)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("cache/linnet/art")).count == 1)
    }
}
