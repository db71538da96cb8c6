import DBus
import LibraryFormats
import MPRIS

/// The synced-lyrics members of `io.linnet.Linnet1`: the current track's timed lines, the line
/// sung now, and which track the lines belong to.
extension LinnetExtension {
    /// Forwards the follower's changes as PropertiesChanged, each carrying the value decided at
    /// that instant (not re-read), so a client sees exactly the lines the timer stepped through.
    func followLyrics() {
        lyrics?.start { [weak self] change in
            guard let self else { return }
            let changed: (MemberName, DBusValue)
            switch change {
            case .line(let text): changed = ("CurrentLyric", .string(text))
            case .lines(let entryID): changed = ("SyncedLyricsTrack", .objectPath(Self.lyricsTrack(entryID)))
            }
            try? connection.emitPropertiesChanged(interface: Self.interfaceName, path: MPRISNames.objectPath, changed: [changed])
        }
    }

    func lyricsMethods() -> [DBusMethod] {
        [
            DBusMethod("GetSyncedLyrics", outputs: [DBusArgument("lines", Self.syncedLinesType)]) { [weak self] _ in
                let lines = self?.lyrics?.lines.lines ?? []
                return [.array(Self.syncedLineType, lines.map { .structure([.int64($0.timeMicroseconds), .string($0.text)]) })]
            },
        ]
    }

    func lyricsProperties() -> [DBusProperty] {
        [
            DBusProperty("CurrentLyric", type: .string) { [weak self] in
                .string(self?.lyrics?.currentLine ?? "")
            },
            DBusProperty("SyncedLyricsTrack", type: .objectPath) { [weak self] in
                .objectPath(Self.lyricsTrack(self?.lyrics?.lines.entryID))
            },
        ]
    }

    /// The MPRIS track id of queue entry `entryID`, NoTrack for nil.
    static func lyricsTrack(_ entryID: UInt64?) -> ObjectPath {
        (entryID.map(TrackID.forEntry) ?? .noTrack).path
    }

    /// (start in microseconds, words).
    static let syncedLineType = DBusType.structure([.int64, .string])
    static let syncedLinesType = DBusType.array(syncedLineType)
}
