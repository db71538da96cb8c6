import DBus
import Foundation
import Glibc
import TestSupport
import Testing
@testable import LinnetCore

/// What OpenUri and AddTrack let into the queue: bounded URIs of supported schemes, local
/// paths that are regular readable files, and no more than a full queue.
@Suite struct MediaAdmissionTests {
    private func refusal(_ uri: String) -> DBusError? {
        do {
            _ = try MediaAdmission.admit(uri)
            return nil
        } catch {
            return error
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
