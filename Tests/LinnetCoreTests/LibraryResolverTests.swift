@testable import LibraryFormats
import Foundation
import Glibc
import LibraryCache
import LinnetCore
import Logging
import Playback
import TestSupport
import Testing

/// What the user types becomes an ordered queue, and everything else a stated reason.
@Suite struct LibraryResolverTests {
    private func resolver(in dir: ScratchDirectory, limits: MediaResolver.Limits = .init()) -> MediaResolver {
        MediaResolver(scanner: MetadataScanner(maxConcurrentScans: 2, artCache: ArtCache(directory: dir.path("art"))), limits: limits)
    }

    @Test func foldersPlayByDiscThenTrackThenNaturalNameAndSubfoldersFollow() async throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("Music/Album")
        // Name order is the reverse of disc/track order.
        try await TaggedMedia.ogg(at: album + "/a.ogg", tags: ["title": "Disc Two", "album-disc-number": "2", "track-number": "1"])
        try await TaggedMedia.ogg(at: album + "/b.ogg", tags: ["title": "Second", "album-disc-number": "1", "track-number": "2"])
        try await TaggedMedia.ogg(at: album + "/c.ogg", tags: ["title": "First", "track-number": "1"])
        try await TaggedMedia.ogg(at: album + "/10 x.ogg", tags: [:])
        try await TaggedMedia.ogg(at: album + "/2 x.ogg", tags: [:])
        try dir.makeDirectory("Music/Album/Sub 10")
        try dir.makeDirectory("Music/Album/Sub 2")
        try await TaggedMedia.ogg(at: dir.path("Music/Album/Sub 10/s10.ogg"), tags: [:])
        try await TaggedMedia.ogg(at: dir.path("Music/Album/Sub 2/s2.ogg"), tags: [:])
        try dir.write("Music/Album/.hidden.ogg", "not played")
        try dir.write("Music/Album/cover.jpg", "not audio")
        try dir.write("Music/Album/list.m3u", "a.ogg\n")
        // A loop back to an ancestor, and a second link to an already listed folder.
        #expect(symlink(dir.path("Music"), album + "/loop") == 0)
        #expect(symlink(album + "/Sub 2", dir.path("Music/Album/Sub 3 link")) == 0)

        let started = ContinuousClock.now
        let resolution = await resolver(in: dir).resolve(["Music"], workingDirectory: dir.path, home: "/nonexistent")
        print("resolved a folder of 7 tagged files in \(ContinuousClock.now - started)")
        #expect(resolution.rejections.isEmpty, "\(resolution.rejections)")
        #expect(resolution.items.map(\.uri) == [
            "c.ogg", "b.ogg", "2 x.ogg", "10 x.ogg", "a.ogg", "Sub 2/s2.ogg", "Sub 10/s10.ogg",
        ].map { FileURI.uri(forPath: album + "/" + $0) })
        #expect(resolution.items[0].scanned?.metadata.title == "First")
        #expect(resolution.items[4].scanned?.metadata.discNumber == 2)
    }

    /// A library given on the command line must not be tag-scanned file by file before linnet
    /// starts: past the limit, folders go by name and tags are left to the background scan.
    @Test func foldersBeyondTheTagOrderingLimitGoByNameWithoutReadingTags() async throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("Album")
        try await TaggedMedia.ogg(at: album + "/a.ogg", tags: ["title": "Third", "track-number": "3"])
        try await TaggedMedia.ogg(at: album + "/b.ogg", tags: ["title": "Second", "track-number": "2"])
        try await TaggedMedia.ogg(at: album + "/c.ogg", tags: ["title": "First", "track-number": "1"])
        let byName = ["a.ogg", "b.ogg", "c.ogg"].map { FileURI.uri(forPath: album + "/" + $0) }

        let overLimit = await resolver(in: dir, limits: .init(maxTagOrderedFiles: 2))
            .resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(overLimit.items.map(\.uri) == byName)
        #expect(overLimit.items.allSatisfy { $0.scanned == nil })

        let withinLimit = await resolver(in: dir, limits: .init(maxTagOrderedFiles: 3))
            .resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(withinLimit.items.map(\.uri) == byName.reversed())
        #expect(withinLimit.items.first?.scanned?.metadata.title == "First")
    }

    /// A second start of a large library: tags the cache holds come with the entries (no scan and
    /// no TrackMetadataChanged per track later), and the order is still by name, as without a cache.
    @Test func foldersBeyondTheTagOrderingLimitTakeCachedTagsButStillGoByName() async throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("Album")
        try await TaggedMedia.ogg(at: album + "/a.ogg", tags: ["title": "Third", "track-number": "3"])
        try await TaggedMedia.ogg(at: album + "/b.ogg", tags: ["title": "Second", "track-number": "2"])
        try await TaggedMedia.ogg(at: album + "/c.ogg", tags: ["title": "First", "track-number": "1"])
        try dir.write("Album/b.lrc", "[00:00.50]sung")
        let byName = ["a.ogg", "b.ogg", "c.ogg"].map { FileURI.uri(forPath: album + "/" + $0) }
        let cache = LibraryCache(directory: dir.path("cache"), logger: Logger(label: "test"))
        let scanner = MetadataScanner(maxConcurrentScans: 2, artCache: ArtCache(directory: dir.path("art")), cache: cache)
        let resolver = MediaResolver(scanner: scanner, limits: .init(maxTagOrderedFiles: 2))

        let cold = await resolver.resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(cold.items.map(\.uri) == byName)
        #expect(cold.items.allSatisfy { $0.scanned == nil })

        // Only the first two files read (and so cached): the third stays for the player's scan.
        _ = await scanner.scan(Array(byName.prefix(2)))
        cache.flush()
        let warm = await resolver.resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(warm.items.map(\.uri) == byName)
        #expect(warm.items.map { $0.scanned?.metadata.title } == ["Third", "Second", nil])
        #expect(warm.items.map(\.sidecarLyrics) == [nil, "[00:00.50]sung", nil])
    }

    /// The cache is asked with the size and modification time the folder walk saw: a file
    /// rewritten since it was read is not answered from the cache, and a linked file is
    /// answered by its target's stamp, as a scan would key it.
    @Test func cachedTagsAtStartFollowTheFilesAsTheWalkFindsThem() async throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("Album")
        try await TaggedMedia.ogg(at: album + "/a.ogg", tags: ["title": "A"])
        try await TaggedMedia.ogg(at: album + "/b.ogg", tags: ["title": "B"])
        try await TaggedMedia.ogg(at: dir.path("elsewhere.ogg"), tags: ["title": "C"])
        #expect(symlink(dir.path("elsewhere.ogg"), album + "/c.ogg") == 0)
        let uris = ["a.ogg", "b.ogg", "c.ogg"].map { FileURI.uri(forPath: album + "/" + $0) }
        let cache = LibraryCache(directory: dir.path("cache"), logger: Logger(label: "test"))
        let scanner = MetadataScanner(maxConcurrentScans: 2, artCache: ArtCache(directory: dir.path("art")), cache: cache)
        let resolver = MediaResolver(scanner: scanner, limits: .init(maxTagOrderedFiles: 2))
        _ = await scanner.scan(uris)
        cache.flush()
        let warm = await resolver.resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(warm.items.map { $0.scanned?.metadata.title } == ["A", "B", "C"])

        // b.ogg rewritten (another size): read again by the player, not taken from the cache.
        try await TaggedMedia.ogg(at: album + "/b.ogg", tags: ["title": "Bee", "artist": "Someone"])
        let changed = await resolver.resolve(["Album"], workingDirectory: dir.path, home: "/nonexistent")
        #expect(changed.items.map(\.uri) == uris)
        #expect(changed.items.map { $0.scanned?.metadata.title } == ["A", nil, "C"])
    }

    /// A large folder's plain files are examined on two threads, then judged in name order: the
    /// order, the refusals and where the item cap cuts are those of a one-by-one walk.
    @Test func aLargeFolderIsJudgedInNameOrderWhateverExaminesIt() async throws {
        let dir = try ScratchDirectory()
        let album = try dir.makeDirectory("Big")
        let names = (1...700).map { "\($0) song.ogg" }
        for name in names.shuffled() { try dir.write("Big/" + name, "x") }
        try dir.write("Big/notes.txt", "x")
        #expect(mkfifo(album + "/350 pipe.ogg", 0o600) == 0)
        #expect(symlink("/proc/self/environ", album + "/400 environ.ogg") == 0)
        let byName = names.map { FileURI.uri(forPath: album + "/" + $0) }

        let whole = await MediaResolver(scanner: nil).resolve(["Big"], workingDirectory: dir.path, home: "/")
        #expect(whole.items.map(\.uri) == byName)
        #expect(whole.rejections.map(\.input) == [album + "/400 environ.ogg"])
        #expect(whole.rejections.map(\.reason) == [.refused(.systemFile)])

        let capped = await MediaResolver(scanner: nil, limits: .init(maxItems: 550))
            .resolve(["Big"], workingDirectory: dir.path, home: "/")
        #expect(capped.items.map(\.uri) == Array(byName.prefix(550)))
        #expect(capped.rejections.map(\.reason) == [.refused(.systemFile), .tooManyItems(limit: 550)])
    }

    @Test func inputsOfEveryKindAreResolvedOrRejectedWithAReason() async throws {
        let dir = try ScratchDirectory()
        let home = try dir.makeDirectory("home")
        let song = try dir.write("cwd/song.ogg", "bytes are not checked here")
        let homeSong = try dir.write("home/h.flac", "x")
        try dir.write("cwd/notes.txt", "x")
        try dir.write("cwd/noext", "x")
        try dir.makeDirectory("cwd/empty")
        #expect(mkfifo(dir.path("cwd/pipe.ogg"), 0o600) == 0)
        let long = "/" + String(repeating: "a", count: 9000) + ".ogg"
        let inputs = [
            "song.ogg", "~/h.flac", "file://" + dir.path("cwd/song.ogg"), "https://radio.example/live.mp3",
            "missing.ogg", "notes.txt", "noext", "empty", "pipe.ogg", "ftp://host/x.ogg", long,
            "http://", "bad\u{7}name.ogg", "file://remote/x.ogg",
        ]
        let resolution = await resolver(in: dir).resolve(inputs, workingDirectory: dir.path("cwd"), home: home)
        #expect(resolution.items.map(\.uri) == [
            FileURI.uri(forPath: song), FileURI.uri(forPath: homeSong), FileURI.uri(forPath: song),
            "https://radio.example/live.mp3",
        ])
        let reasons = Dictionary(resolution.rejections.map { ($0.input, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["missing.ogg"] == .refused(.missing))
        #expect(reasons["notes.txt"] == .refused(.unsupportedExtension("txt")))
        #expect(reasons["noext"] == .refused(.unsupportedExtension("")))
        #expect(reasons["empty"] == .emptyFolder)
        #expect(reasons["pipe.ogg"] == .refused(.notRegularFile("a FIFO")))
        #expect(reasons["ftp://host/x.ogg"] == .refused(.unsupportedScheme("ftp")))
        #expect(reasons[long] == .refused(.tooLong(length: 9005, limit: 8192)))
        #expect(reasons["http://"] == .refused(.noHost(scheme: "http")))
        #expect(reasons["bad\u{7}name.ogg"] == .refused(.controlCharacters))
        #expect(reasons["file://remote/x.ogg"] == .refused(.remoteFileHost("remote")))
        #expect(resolution.rejections.count == 10)
    }

    /// The kernel's folders are not music folders: refused when given, not entered through a
    /// link, and a link named like a song into them is refused (issue 16).
    @Test func kernelFoldersAreNeitherWalkedNorPlayed() async throws {
        let dir = try ScratchDirectory()
        let song = try dir.write("music/song.ogg", "x")
        #expect(symlink("/proc", dir.path("music/proc")) == 0)
        #expect(symlink("/proc/self/environ", dir.path("music/environ.ogg")) == 0)
        let resolution = await MediaResolver(scanner: nil).resolve(["/proc", "/sys/kernel", "music"], workingDirectory: dir.path, home: "/")
        #expect(resolution.items.map(\.uri) == [FileURI.uri(forPath: song)])
        #expect(resolution.rejections.map(\.reason) == [.refused(.systemFile), .refused(.systemFile), .refused(.systemFile)])
        #expect(resolution.rejections.map(\.input) == ["/proc", "/sys/kernel", dir.path("music/environ.ogg")])
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file whatever its mode"))
    func unreadableFilesAreRejected() async throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locked.ogg", "x")
        #expect(chmod(path, 0) == 0)
        let resolution = await MediaResolver(scanner: nil).resolve([path], workingDirectory: "/", home: "/")
        #expect(resolution.items.isEmpty)
        #expect(resolution.rejections.first?.reason == .refused(.unreadable(String(cString: strerror(EACCES)))))
    }

    @Test func playlistsKeepHintsAndEveryBadEntryIsNamed() async throws {
        let dir = try ScratchDirectory()
        let good = try dir.write("music/good.ogg", "x")
        try dir.write("music/sub/inner.ogg", "x")
        try dir.write("music/readme.txt", "x")
        try dir.write("lists/mix.m3u", """
            #EXTM3U
            #EXTINF:42,Band - Good One
            ../music/good.ogg
            ../music/gone.ogg
            ../music/sub
            rtsp://camera/stream
            ../music/readme.txt
            nested.m3u
            """)
        let resolution = await MediaResolver(scanner: nil).resolve(["lists/mix.m3u"], workingDirectory: dir.path, home: "/")
        #expect(resolution.items.map(\.uri) == [FileURI.uri(forPath: good), FileURI.uri(forPath: dir.path("music/sub/inner.ogg"))])
        #expect(resolution.items[0].title == "Good One" && resolution.items[0].artist == "Band")
        #expect(resolution.items[0].durationMicroseconds == 42_000_000)
        let playlist = dir.path("lists/mix.m3u")
        #expect(resolution.rejections == [
            Rejection(input: "lists/mix.m3u", playlist: playlist, reason: .playlistProblem(PlaylistProblem(
                playlist: playlist, line: 8, error: .file(.missing(path: dir.path("lists/nested.m3u")))))),
            Rejection(input: FileURI.uri(forPath: dir.path("music/gone.ogg")), playlist: playlist, reason: .refused(.missing)),
            Rejection(input: "rtsp://camera/stream", playlist: playlist, reason: .refused(.unsupportedScheme("rtsp"))),
            Rejection(input: FileURI.uri(forPath: dir.path("music/readme.txt")), playlist: playlist, reason: .refused(.unsupportedExtension("txt"))),
        ])
        let unreadable = await MediaResolver(scanner: nil).resolve([dir.path("nope.pls")], workingDirectory: "/", home: "/")
        #expect(unreadable.rejections.map(\.reason) == [.refused(.missing)])
    }

    @Test func theItemLimitCutsLongQueues() async throws {
        let dir = try ScratchDirectory()
        for index in 0..<6 { try dir.write("many/\(index).wav", "x") }
        let limits = MediaResolver.Limits(maxItems: 4)
        let resolution = await MediaResolver(scanner: nil, limits: limits).resolve(
            ["many", "many/5.wav"], workingDirectory: dir.path, home: "/")
        #expect(resolution.items.map(\.uri) == (0..<4).map { FileURI.uri(forPath: dir.path("many/\($0).wav")) })
        #expect(resolution.rejections.contains { $0.reason == .tooManyItems(limit: 4) })
    }

    @Test func supportedSetsAreExposed() {
        #expect(MediaResolver.supportedSchemes == ["file", "http", "https"])
        for ext in ["ogg", "oga", "opus", "flac", "mp3", "m4a", "aac", "wav", "wv", "ape", "mka", "webm"] {
            #expect(MediaResolver.supportedExtensions.contains(ext))
        }
        #expect(MediaResolver.isAudioFile(path: "/a/B.FLAC"))
        #expect(!MediaResolver.isAudioFile(path: "/a/list.m3u"))
    }
}
