import DBus
import LibraryFormats
import Foundation
import Glibc
import TestSupport
import Testing
@testable import LinnetCore

/// What OpenUri and AddTrack let into the queue: bounded URIs of supported schemes, local
/// paths that are regular readable audio files outside the kernel's file systems, and no more
/// than a full queue. Each refusal is a D-Bus error whose message says why.
@Suite struct MediaAdmissionTests {
    private func refusal(_ uri: String) -> DBusError? {
        do {
            _ = try MediaAdmission.admit(uri)
            return nil
        } catch {
            return error
        }
    }

    /// A folder walk inspects its files against the folder's canonical path, resolved once; the
    /// facts must be those a full inspection gives, links included (through a linked folder too).
    @Test func inspectingInACanonicalFolderGivesTheFullInspectionsFacts() throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("real/album")
        try dir.write("real/album/song.ogg", "bytes")
        try dir.write("elsewhere.ogg", "bytes")
        #expect(symlink(dir.path("elsewhere.ogg"), album + "/linked.ogg") == 0)
        #expect(symlink("/proc/self/status", album + "/proc.ogg") == 0)
        #expect(symlink(album + "/missing.ogg", album + "/dangling.ogg") == 0)
        #expect(mkfifo(album + "/pipe.ogg", 0o600) == 0)
        #expect(symlink(album, dir.path("via")) == 0)
        for folderPath in [album, dir.path("via")] {
            let folderPathBytes = try #require(LocalPath(folderPath))
            let folder = try #require(LocalFileFacts.canonicalPath(of: folderPathBytes))
            #expect(folder.description.hasSuffix("/real/album"))
            let descriptor = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            let opened = LocalFileFacts.OpenFolder(descriptor: descriptor, canonicalPath: folder)
            for name in ["song.ogg", "linked.ogg", "proc.ogg", "dangling.ogg", "pipe.ogg", "missing.ogg"] {
                let file = try #require(LocalPath(folderPath + "/" + name))
                let full = LocalFileFacts.inspect(file)
                #expect(LocalFileFacts.inspect(file, inCanonicalFolder: folder) == full, "\(folderPath)/\(name)")
                // Relative to the open folder, as a walk examines its plain files.
                #expect(LocalFileFacts.inspect(entry: name, of: opened, path: file) == full, "\(folderPath)/\(name)")
            }
        }
        // The stamp is what a cache keys on: the opened file's size and modification time.
        let song = try #require(LocalPath(album + "/song.ogg"))
        var info = stat()
        #expect(stat(album + "/song.ogg", &info) == 0)
        #expect(LocalFileFacts.inspect(song).stamp == LocalFileFacts.Stamp(
            size: 5, modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
    }

    /// A walk joins a folder and an entry's name without normalising again; anything that is not
    /// one entry's name is refused rather than joined.
    @Test func appendingAnEntryNameTakesOnlyNames() throws {
        let folder = try #require(LocalPath("/music/album"))
        #expect(folder.appending(entry: "01 x.ogg") == LocalPath("/music/album/01 x.ogg"))
        #expect(try #require(LocalPath("/")).appending(entry: "x.ogg") == LocalPath("/x.ogg"))
        for bad in ["", ".", "..", "a/b", "nul\u{0}.ogg"] {
            #expect(folder.appending(entry: bad) == nil, "\(bad)")
        }
    }

    @Test func regularFilesAndHTTPStreamsAreAdmitted() throws {
        let dir = try ScratchDirectory()
        let file = try dir.write("song.ogg", "not really audio, but a regular file")
        let link = dir.path("link.ogg")
        #expect(symlink(file, link) == 0)
        #expect(try MediaAdmission.admit(URL(fileURLWithPath: file).absoluteString) == URL(fileURLWithPath: file).absoluteString)
        #expect(refusal(URL(fileURLWithPath: link).absoluteString) == nil)
        #expect(try MediaAdmission.admit("https://radio.example/stream.ogg") == "https://radio.example/stream.ogg")
    }

    @Test func pathsThatAreNotRegularFilesAreRefused() throws {
        let dir = try ScratchDirectory()
        let folder = try dir.makeDirectory("folder")
        let fifo = dir.path("fifo.ogg")
        #expect(mkfifo(fifo, 0o600) == 0)
        let dangling = dir.path("dangling.ogg")
        #expect(symlink(dir.path("gone.ogg"), dangling) == 0)
        for path in [folder, fifo, "/dev/null", dangling, dir.path("missing.ogg")] {
            let error = refusal(URL(fileURLWithPath: path).absoluteString)
            #expect(error?.name == .invalidArgs, "\(path): \(String(describing: error))")
        }
    }

    @Test func theIssueCasesGetTheirDocumentedAnswers() throws {
        let dir = try ScratchDirectory()
        let track = try dir.write("t1.ogg", "x")
        let cases: [(uri: String, reason: String)] = [
            ("file://evilhost/etc/passwd", "must name this machine"),
            (FileURI.uri(forPath: track) + "?x=1#frag", "cannot have a query"),
            ("file:///proc/self/mem", "/proc, /sys or /dev"),
            ("file:///proc/self/environ", "/proc, /sys or /dev"),
            ("file:///etc/shadow", "not a known audio file"),
        ]
        for (uri, reason) in cases {
            let error = refusal(uri)
            #expect(error?.name == .invalidArgs, "\(uri): \(String(describing: error))")
            #expect(error?.message.contains(reason) == true, "\(uri): \(error?.message ?? "admitted")")
        }
        let badName = LocalPath(absolute: Array(dir.path("bad").utf8) + [0xFF, 0xFE] + Array("name.ogg".utf8))!
        let fd = badName.withCString { open($0, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600) }
        #expect(fd >= 0)
        close(fd)
        defer { _ = badName.withCString { unlink($0) } }
        #expect(badName.uri.hasSuffix("/bad%FF%FEname.ogg"))
        #expect(try MediaAdmission.admit(badName.uri) == badName.uri)
    }

    @Test func refusalsNeverQuoteCredentials() {
        let error = refusal("http://user:s3cret@/no-host")
        #expect(error?.name == .invalidArgs)
        #expect(error.map { !$0.message.contains("s3cret") && !$0.message.contains("user") } == true, "\(String(describing: error))")
    }

    @Test func unsupportedSchemesAndNonURIsAreRefused() {
        for uri in ["ftp://host/a.ogg", "javascript:alert(1)", "data:audio/ogg;base64,AAAA", "smb://host/share/a.ogg"] {
            #expect(refusal(uri)?.name == .notSupported, "\(uri)")
        }
        for uri in ["", "no scheme at all", "http:///no-host"] {
            #expect(refusal(uri)?.name == .invalidArgs, "\(uri)")
        }
    }

    @Test func overlongURIsAreRefusedBeforeAnythingElse() {
        let long = "http://radio.example/" + String(repeating: "a", count: MediaAdmission.maximumURILength)
        let error = refusal(long)
        #expect(error?.name == .limitsExceeded)
        #expect(error.map { $0.message.count < 200 } == true, "the error must not echo the giant URI")
    }

    @Test func aFullQueueTakesNoMore() {
        #expect(throws: Never.self) { try MediaAdmission.ensureRoom(queueLength: MediaAdmission.maximumQueueLength - 1) }
        do {
            try MediaAdmission.ensureRoom(queueLength: MediaAdmission.maximumQueueLength)
            Issue.record("a full queue took one more")
        } catch {
            #expect(error.name == .limitsExceeded)
        }
    }
}
