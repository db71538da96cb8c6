import Foundation
import Glibc
import LinnetCore
import TestSupport
import Testing

/// The state file is always a whole old or a whole new version, and never silently lost.
@Suite struct PersistenceStateStoreTests {
    struct Session: Codable, Sendable, Equatable {
        var queue: [String]
        var position: Int64
        var generation: Int
    }

    @Test func roundTripCreatesAPrivateDirectoryAndVersionedJSON() throws {
        let dir = try ScratchDirectory()
        let file = URL(fileURLWithPath: dir.path("state/linnet/session.json"))
        let store = StateStore<Session>(fileURL: file)
        guard case .missing = store.load() else {
            Issue.record("a missing file must load as .missing")
            return
        }
        let session = Session(queue: ["file:///a.ogg", "https://x/y"], position: 1_500_000, generation: 1)
        try store.save(session)
        guard case .loaded(let loaded) = store.load() else {
            Issue.record("a saved value must load")
            return
        }
        #expect(loaded == session)
        var info = stat()
        #expect(stat(dir.path("state/linnet"), &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(dir.path("state"), &info) == 0 && info.st_mode & 0o777 == 0o700)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(json?["version"] as? Int == 1)
        #expect(json?["state"] is [String: Any])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("state/linnet")) == ["session.json"])
    }

    @Test func corruptAndForeignVersionFilesAreMovedAsideNotOverwritten() throws {
        let dir = try ScratchDirectory()
        let path = dir.path("session.json")
        let store = StateStore<Session>(fileURL: URL(fileURLWithPath: path))
        for (index, contents) in ["{\"version\": 1, \"state\": {\"queue\": [", "", "{\"version\": 7, \"state\": {}}", "{\"version\": 1, \"state\": 3}"].enumerated() {
            try dir.write("session.json", contents)
            guard case .corrupt(let reason, let movedTo?) = store.load() else {
                Issue.record("case \(index): corrupt file not reported and moved")
                continue
            }
            print("case \(index): \(reason) → \(movedTo)")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(movedTo.hasPrefix(path + ".corrupt-"))
            #expect(try String(contentsOfFile: movedTo, encoding: .utf8) == contents)
        }
        // Four set-aside files within a second or so: none replaced another.
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".corrupt-") }
        #expect(kept.count == 4)
        try store.save(Session(queue: [], position: 0, generation: 2))
        guard case .loaded = store.load() else {
            Issue.record("saving after a corrupt load must work")
            return
        }
    }

    @Test func anUnwritableDirectoryThrowsAndKeepsTheOldFile() throws {
        let dir = try ScratchDirectory()
        let stateDir = try dir.makeDirectory("state")
        let store = StateStore<Session>(fileURL: URL(fileURLWithPath: stateDir + "/session.json"))
        let old = Session(queue: ["file:///old.ogg"], position: 1, generation: 1)
        try store.save(old)
        // Root ignores permission bits, so as root make the directory immutable instead.
        let locked: Bool
        if getuid() == 0 {
            locked = try ExternalTool.run("chattr", ["+i", stateDir]).status == 0
        } else {
            locked = chmod(stateDir, 0o500) == 0
        }
        try #require(locked, "could not make the directory unwritable")
        defer {
            if getuid() == 0 { _ = try? ExternalTool.run("chattr", ["-i", stateDir]) } else { chmod(stateDir, 0o700) }
        }
        #expect(throws: FileWriteError.self) {
            try store.save(Session(queue: ["file:///new.ogg"], position: 2, generation: 2))
        }
        guard case .loaded(let loaded) = store.load() else {
            Issue.record("the old state must still load")
            return
        }
        #expect(loaded == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: stateDir) == ["session.json"])
    }

    @Test func aFileWhereTheDirectoryShouldBeIsAnError() throws {
        let dir = try ScratchDirectory()
        try dir.write("blocker", "x")
        let store = StateStore<Session>(fileURL: URL(fileURLWithPath: dir.path("blocker/session.json")))
        #expect(throws: FileWriteError(path: dir.path("blocker"), operation: "create directory", code: ENOTDIR)) {
            try store.save(Session(queue: [], position: 0, generation: 0))
        }
    }

    /// Writers replace a large state while a reader loads it in a loop: every load must see a
    /// complete value from one save, never a mixture or a torn file.
    @Test func concurrentSavesNeverShowATornFile() async throws {
        let dir = try ScratchDirectory()
        let store = StateStore<Session>(fileURL: URL(fileURLWithPath: dir.path("session.json")))
        @Sendable func session(_ generation: Int) -> Session {
            Session(queue: Array(repeating: "file:///music/\(generation)/track.ogg", count: 4000), position: Int64(generation), generation: generation)
        }
        try store.save(session(0))
        let writersDone = Recorder<Int>()
        let loads = Recorder<Int>()
        let failures = Recorder<String>()
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    try await onThread {
                        // Recorded even when a save throws, so the reader always stops.
                        defer { writersDone.record(writer) }
                        for step in 1...40 { try store.save(session(writer * 1000 + step)) }
                    }
                }
            }
            group.addTask {
                try await onThread {
                    while writersDone.values.count < 2 {
                        switch store.load() {
                        case .loaded(let value):
                            let expected = session(value.generation)
                            if value != expected { failures.record("mixed value in generation \(value.generation)") }
                            loads.record(value.generation)
                        case .missing: failures.record("file missing during a save")
                        case .corrupt(let reason, _): failures.record("torn: \(reason)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: dir.path("session.json"))[.size] as? Int) ?? 0
        print("80 saves of \(bytes) bytes with \(loads.values.count) concurrent loads in \(ContinuousClock.now - started)")
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
        #expect(loads.values.count > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["session.json"])
    }

    /// A save killed mid-write leaves `.session.json.tmp-<pid>-<n>`; the next load removes it
    /// when that process is gone, and leaves a live writer's file alone.
    @Test func loadRemovesTemporariesOfDeadWritersOnly() throws {
        let dir = try ScratchDirectory()
        let file = URL(fileURLWithPath: dir.path("state/session.json"))
        let store = StateStore<Session>(fileURL: file)
        try store.save(Session(queue: ["a"], position: 1, generation: 1))
        // pid_max is at most 2^22 on Linux: this pid cannot exist. pid 1 always does.
        let dead = try dir.write("state/.session.json.tmp-2147483600-7", "{\"torn")
        let live = try dir.write("state/.session.json.tmp-1-3", "{\"in progress")
        let unrelated = try dir.write("state/.other.json.tmp-2147483600-1", "not ours")
        guard case .loaded(let session) = store.load() else {
            Issue.record("the saved session did not load")
            return
        }
        #expect(session.queue == ["a"])
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: unrelated))
    }
}

/// Runs blocking work on a thread of its own, off Swift's small cooperative pool.
private func onThread(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
