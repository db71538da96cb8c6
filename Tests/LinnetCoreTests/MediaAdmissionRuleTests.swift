import Foundation
import Glibc
@testable import LibraryFormats
import TestSupport
import Testing

/// The one admission rule for media (issue 16): its syntax half and its verdict on file facts as
/// pure functions, and its inspection of the real file system.
@Suite struct MediaAdmissionRuleTests {
    private static func path(_ text: String) -> LocalPath { LocalPath(text)! }

    @Test func fileURIsMustBeLocalPlainAndDecodeToBytes() {
        let cases: [(String, Result<MediaAddress, MediaRefusal>)] = [
            ("file:///music/a.ogg", .success(.local(Self.path("/music/a.ogg")))),
            ("file://localhost/music/a.ogg", .success(.local(Self.path("/music/a.ogg")))),
            ("FILE://LocalHost/music/a.ogg", .success(.local(Self.path("/music/a.ogg")))),
            ("file:/music/./x/../a.ogg", .success(.local(Self.path("/music/a.ogg")))),
            ("file:///a/../../b.ogg", .success(.local(Self.path("/b.ogg")))),
            ("file://evilhost/etc/passwd", .failure(.remoteFileHost("evilhost"))),
            ("file://127.0.0.1/etc/passwd", .failure(.remoteFileHost("127.0.0.1"))),
            ("file:///music/t1.ogg?x=1#frag", .failure(.queryOrFragment)),
            ("file:///music/t1.ogg#frag", .failure(.queryOrFragment)),
            ("file:///music/t1.ogg?", .failure(.queryOrFragment)),
            ("file://evilhost?x", .failure(.remoteFileHost("evilhost"))),
            ("file:///music/a%3Fb%23c.ogg", .success(.local(Self.path("/music/a?b#c.ogg")))),
            ("file:///a%00b.ogg", .failure(.escapedNUL)),
            ("file:music/a.ogg", .failure(.relativeFileURI)),
            ("file://", .failure(.relativeFileURI)),
            ("http://user:pass@radio.example/live", .success(.stream("http://user:pass@radio.example/live"))),
            ("https://radio.example", .success(.stream("https://radio.example"))),
            ("http://user@/x", .failure(.noHost(scheme: "http"))),
            ("https:///x", .failure(.noHost(scheme: "https"))),
            ("http:x", .failure(.noHost(scheme: "http"))),
            ("ftp://host/a.ogg", .failure(.unsupportedScheme("ftp"))),
            ("javascript:alert(1)", .failure(.unsupportedScheme("javascript"))),
            ("no scheme at all", .failure(.notAURI)),
            ("", .failure(.empty)),
            ("file:///a\u{7}.ogg", .failure(.controlCharacters)),
            ("file:///" + String(repeating: "a", count: 9000), .failure(.tooLong(length: 9008, limit: 8192))),
        ]
        for (uri, expected) in cases {
            #expect(MediaAddress.parse(uri: uri, maxLength: 8192) == expected, "\(uri)")
        }
    }

    @Test func namesThatAreNotUTF8SurviveAsBytesAndRoundTrip() throws {
        let uri = "file:///music/bad%FF%FEname.ogg"
        guard case .success(.local(let path)) = MediaAddress.parse(uri: uri, maxLength: 8192) else {
            Issue.record("refused \(uri)")
            return
        }
        #expect(path.bytes == Array("/music/bad".utf8) + [0xFF, 0xFE] + Array("name.ogg".utf8))
        #expect(path.uri == uri)
        #expect(path.fileExtension == "ogg")
        // What a String would have made of it: another file.
        #expect(FileURI.path(fromURI: uri) == "/music/bad\u{FFFD}\u{FFFD}name.ogg")
    }

    @Test func theVerdictOnFileFactsIsPure() {
        let song = Self.path("/music/a.ogg")
        let audio = MediaAdmissionRule.audioExtensions
        let cases: [(LocalFileFacts, LocalPath, MediaRefusal?)] = [
            (LocalFileFacts(kind: .regular, canonicalPath: song), song, nil),
            (LocalFileFacts(kind: .missing), song, .missing),
            (LocalFileFacts(kind: .missing, examineError: "Permission denied"), song, .unreadable("Permission denied")),
            (LocalFileFacts(kind: .directory), song, .directory),
            (LocalFileFacts(kind: .fifo), song, .notRegularFile("a FIFO")),
            (LocalFileFacts(kind: .characterDevice), song, .notRegularFile("a character device")),
            (LocalFileFacts(kind: .socket), song, .notRegularFile("a socket")),
            // A link named like a song that resolves into /proc, or a file on procfs mounted elsewhere.
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/proc/self/environ")), song, .systemFile),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/sys/kernel/notes")), song, .systemFile),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/dev/shm/a.ogg")), song, .systemFile),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/mnt/p/1/environ"), onSystemFileSystem: true), song, .systemFile),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/devices/a.ogg")), song, nil),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/procedures/a.ogg")), song, nil),
            (LocalFileFacts(kind: .regular, canonicalPath: Self.path("/etc/shadow")), Self.path("/etc/shadow"), .unsupportedExtension("")),
            (LocalFileFacts(kind: .regular, canonicalPath: song, openError: "Permission denied"), song, .unreadable("Permission denied")),
        ]
        for (facts, path, expected) in cases {
            #expect(MediaAdmissionRule.verdict(on: facts, for: path, extensions: audio) == expected, "\(facts)")
        }
    }

    @Test func theRuleOnTheRealFileSystem() throws {
        let dir = try ScratchDirectory()
        let song = try dir.write("song.ogg", "a regular file")
        let fifo = dir.path("fifo.ogg")
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = try dir.makeDirectory("folder.ogg")
        let environLink = dir.path("environ.ogg")
        #expect(symlink("/proc/self/environ", environLink) == 0)
        let versionLink = dir.path("version.ogg")
        #expect(symlink("/proc/version", versionLink) == 0)
        let nonUTF8 = LocalPath(absolute: Array(dir.path("bad").utf8) + [0xFF, 0xFE] + Array("name.ogg".utf8))!
        let fd = nonUTF8.withCString { open($0, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600) }
        #expect(fd >= 0)
        close(fd)
        defer { _ = nonUTF8.withCString { unlink($0) } }

        func admitted(_ uri: String) -> Result<MediaAddress, MediaRefusal> { MediaAdmissionRule.admit(uri: uri) }
        #expect(admitted(FileURI.uri(forPath: song)) == .success(.local(Self.path(song))))
        #expect(admitted(nonUTF8.uri) == .success(.local(nonUTF8)))
        #expect(admitted(FileURI.uri(forPath: fifo)) == .failure(.notRegularFile("a FIFO")))
        #expect(admitted(FileURI.uri(forPath: folder)) == .failure(.directory))
        #expect(admitted(FileURI.uri(forPath: environLink)) == .failure(.systemFile))
        #expect(admitted(FileURI.uri(forPath: versionLink)) == .failure(.systemFile))
        #expect(admitted("file:///proc/self/mem") == .failure(.systemFile))
        #expect(admitted("file:///proc/self/environ") == .failure(.systemFile))
        #expect(admitted("file:///dev/null") == .failure(.notRegularFile("a character device")))
        #expect(admitted("file:///etc/shadow") == .failure(.unsupportedExtension("")))
        #expect(admitted(FileURI.uri(forPath: dir.path("missing.ogg"))) == .failure(.missing))
        #expect(admitted(FileURI.uri(forPath: song) + "?x=1#frag") == .failure(.queryOrFragment))
    }

    @Test func credentialsAreRemovedFromURIsAndFromText() {
        #expect(URICredentials.removed(from: "http://user:pass@radio.example/live?x=1") == "http://radio.example/live?x=1")
        #expect(URICredentials.removed(from: "https://user@radio.example:8443") == "https://radio.example:8443")
        #expect(URICredentials.removed(from: "http://radio.example/a@b") == "http://radio.example/a@b")
        #expect(URICredentials.removed(from: "file:///music/a@b.ogg") == "file:///music/a@b.ogg")
        #expect(URICredentials.removed(from: "not a uri u:p@h") == "not a uri u:p@h")
        #expect(URICredentials.present(in: "http://u:p@h/x") && !URICredentials.present(in: "http://h/x@y"))
        #expect(URICredentials.scrubbed("Not playing http://u:s3cret@h/x: 401, again \"https://v:s3cret@k\" and ftp://w:s3cret@m/")
            == "Not playing http://h/x: 401, again \"https://k\" and ftp://m/")
        #expect(URICredentials.scrubbed("mail me@home, see http://h/x") == "mail me@home, see http://h/x")
    }
}
