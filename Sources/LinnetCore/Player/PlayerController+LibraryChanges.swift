import LibraryFormats
import Playback
import PlayerCore

extension PlayerController {
    /// Hooks the folder watcher up: written files, and the files of a folder moved in, are
    /// scanned (a new modification time misses the cache, so the scanner reads and stores them;
    /// an unchanged file is answered from the cache) and queued entries of them get what was
    /// read, replacing the former read; removed files leave the cache (a queued entry of one
    /// stays, and fails with the usual reason when it is reached, since a tagger may delete and
    /// write a file anew); a cover file added or removed has that folder's queued tracks scanned
    /// again (the scanner looks folder art up afresh, without reading unchanged files).
    func watchLibraryChanges() {
        let logger = self.logger
        folderWatcher.setHandlers(
            onChange: { [weak self] changes in self?.libraryChanged(changes) },
            onProblem: { problem in logger.notice("\(problem)") })
    }

    private func libraryChanged(_ changes: FolderChanges) {
        if !changes.removed.isEmpty { configuration.scanCache?.forget(Array(changes.removed)) }
        if !changes.newFolders.isEmpty || !changes.goneFolders.isEmpty {
            logger.debug("""
                folders in the watched tree: \(changes.newFolders.count) now watched, \
                \(changes.goneFolders.count) gone
                """)
        }
        let written = changes.written.filter(MediaResolver.isAudioFile(path:)).map(FileURI.uri(forPath:))
        let coverFolders = Set(changes.written.union(changes.removed).filter(Self.isCoverFile).map(Self.folder(of:)))
        guard !written.isEmpty || !coverFolders.isEmpty else { return }
        if !coverFolders.isEmpty { scanner.folderArtChanged() }
        Task.detached { [weak self] in
            guard let self else { return }
            var uris = Set(written)
            if !coverFolders.isEmpty {
                // The queued tracks of that folder show the art they were scanned with: scan
                // them again (unchanged files are answered from the cache, with fresh folder art).
                let owner = self.owner
                let queued = (try? await owner.loop.run { owner.value.machine.queue.entries.map(\.uri) }) ?? []
                let stale = queued.filter { uri in
                    FileURI.path(fromURI: uri).map { coverFolders.contains(Self.folder(of: $0)) } ?? false
                }
                uris.formUnion(stale)
            }
            let ordered = uris.sorted()
            guard !ordered.isEmpty else { return }
            self.logger.debug("files changed in a watched folder: \(ordered.count) to read again")
            let ticket = self.tagReadOrder.rereading(ordered)
            let results = await self.scanner.scan(ordered)
            guard !self.scanner.isShutDown else { return }
            var outcomes: [String: ScanOutcome] = [:]
            for (uri, result) in zip(ordered, results) {
                outcomes[uri] = switch result {
                case .success(let track):
                    .read(TrackTags(track.metadata), duration: track.durationMicroseconds.map { .microseconds($0) },
                          sidecarLyrics: SidecarLyrics.text(forTrack: uri))
                case .failure(let failure): .unreadable(failure.message)
                }
            }
            let owner = self.owner
            let readOrder = self.tagReadOrder
            owner.loop.perform { [outcomes] in
                // A later change's read of a file, landed first, wins over this one.
                let current = Set(zip(ordered, readOrder.areCurrent(ordered, ticket: ticket)).filter(\.1).map(\.0))
                for entry in owner.value.machine.queue.entries {
                    guard current.contains(entry.uri), let outcome = outcomes[entry.uri] else { continue }
                    _ = owner.value.send(.scanned(entryID: entry.id, outcome))
                }
            }
        }
    }

    /// Watches the folders holding the local files among `uris`, working it out off the caller's
    /// thread (the loop, for a scan effect): a large queue means many paths to decode.
    func watchFolders(of uris: [String]) {
        let watcher = folderWatcher
        let logger = self.logger
        Task.detached {
            // Folders first, decoded once each: a queue is thousands of files in a few folders.
            let folderURIs = Set(uris.lazy.filter { $0.hasPrefix("file:") }.compactMap { uri in
                uri.lastIndex(of: "/").map { String(uri[..<$0]) }
            })
            let added = watcher.watch(Set(folderURIs.compactMap { FileURI.path(fromURI: $0) }))
            if added > 0 { logger.debug("watching \(added) more folders for changes") }
        }
    }

    /// Whether `path` is a cover file ``ArtCache/folderArt(nextTo:)`` would pick.
    static func isCoverFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        return ["cover", "folder", "front"].contains { stem in
            ["jpg", "jpeg", "png"].contains { name == "\(stem).\($0)" }
        }
    }

    /// The folder holding the file at `path`.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
