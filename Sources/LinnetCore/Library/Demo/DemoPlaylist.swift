import LibraryFormats
import Glibc

/// A few short tracks linnet synthesises itself, so a machine with no music still has
/// something to play: tagged 16-bit stereo WAV files written once into a cache directory.
public struct DemoPlaylist: Sendable {
    /// What one demo track is and is called.
    public struct Track: Sendable, Hashable {
        /// File name inside the demo directory.
        public let fileName: String
        /// Title tag (`INAM`).
        public let title: String
        /// Artist tag (`IART`).
        public let artist: String
        /// Album tag (`IPRD`).
        public let album: String
        /// Track number tag (`ITRK`).
        public let trackNumber: Int
        /// The exact length in microseconds.
        public let durationMicroseconds: Int64
    }

    /// The demo tracks in play order.
    public static let tracks: [Track] = pieces.map(\.track)

    /// The directory holding the files, e.g. ``XDGDirectories/linnetDemo``.
    public let directory: String

    /// The demo playlist stored in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The `file://` URIs of the tracks, in order, writing any that are missing or damaged
    /// (wrong size or header) and reusing the rest. Each file is replaced atomically, so
    /// concurrent callers and crashes leave only whole files. Throws when the directory cannot
    /// be created or written.
    public func prepare() throws(FileWriteError) -> [String] {
        var uris: [String] = []
        for piece in Self.pieces {
            let path = directory + "/" + piece.track.fileName
            let header = RIFFWave.header(frameCount: piece.score.frameCount, tags: piece.tags)
            let size = header.count + piece.score.frameCount * RIFFWave.bytesPerFrame
            if !Self.isIntact(path, header: header, size: size) {
                let bytes = RIFFWave.file(interleaved: DemoSynth.render(piece.score), tags: piece.tags)
                try AtomicFile.write(bytes, to: path, fileMode: 0o600)
            }
            uris.append(FileURI.uri(forPath: path))
        }
        return uris
    }

    private struct Piece {
        let track: Track
        let score: DemoScore
        var tags: [RIFFWave.Tag] {
            [
                .init(id: "INAM", value: track.title), .init(id: "IART", value: track.artist),
                .init(id: "IPRD", value: track.album), .init(id: "ITRK", value: String(track.trackNumber)),
                .init(id: "IGNR", value: "Demo"), .init(id: "ISFT", value: "linnet"),
            ]
        }
    }

    private static let pieces: [Piece] = [
        ("01-first-light.wav", "First Light", DemoScores.firstLight),
        ("02-linnets-song.wav", "Linnet’s Song", DemoScores.linnetsSong),
        ("03-evening-tide.wav", "Evening Tide", DemoScores.eveningTide),
        ("04-little-waltz.wav", "Little Waltz", DemoScores.littleWaltz),
    ].enumerated().map { index, piece in
        let frames = piece.2.frameCount
        return Piece(
            track: Track(
                fileName: piece.0, title: piece.1, artist: "Linnet", album: "Linnet Demo", trackNumber: index + 1,
                durationMicroseconds: Int64(frames) * 1_000_000 / Int64(RIFFWave.sampleRate)),
            score: piece.2)
    }

    /// Whether `path` is a regular file of exactly `size` bytes starting with `header`: a
    /// truncated or foreign file fails one of the two.
    private static func isIntact(_ path: String, header: [UInt8], size: Int) -> Bool {
        guard let (fd, info) = try? BoundedFileReader.openForReading(path) else { return false }
        defer { close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == size else { return false }
        var start = [UInt8](repeating: 0, count: header.count)
        let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return count == header.count && start == header
    }
}
