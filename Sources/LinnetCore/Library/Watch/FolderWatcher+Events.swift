import Glibc

/// The watcher's thread: reading inotify events and turning them into ``FolderChanges``.
extension FolderWatcher {
    func run() {
        let (inotify, wake) = state.withLock { ($0.inotify, $0.wake) }
        defer {
            close(inotify)
            close(wake.read)
            close(wake.write)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 || state.withLock({ $0.isStopped }) { return }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var problems: [String] = []
            let changes = decode(buffer, count: count, problems: &problems)
            report(problems)
            if !changes.isEmpty { handlers.withLock { $0 }?.onChange(changes) }
        }
    }

    /// The events in the first `count` bytes of `buffer` (struct inotify_event records), in the
    /// order the kernel queued them: a folder moved away and another moved in under its name in
    /// one read must end up watched under that name.
    private func decode(_ buffer: [UInt8], count: Int, problems: inout [String]) -> FolderChanges {
        var changes = FolderChanges()
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset + header <= count {
                let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameBytes = bytes[(offset + header)..<min(count, offset + header + Int(event.len))]
                offset += header + Int(event.len)
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                handle(event.wd, event.mask, name, into: &changes, problems: &problems)
            }
        }
        return changes
    }

    private func handle(_ descriptor: Int32, _ mask: UInt32, _ name: String, into changes: inout FolderChanges,
                        problems: inout [String]) {
        func has(_ flags: Int32) -> Bool { mask & UInt32(flags) != 0 }
        if has(IN_Q_OVERFLOW) {
            // The kernel's queue filled and dropped events: the files of every watched folder
            // count as written (unchanged ones are answered from the cache). Its subfolders are
            // not walked: most were never watched (only queued files' folders are), and walking
            // them would read whole libraries nobody queued.
            let watched = state.withLock { Array($0.descriptors.keys) }
            for folder in watched { changes.written.formUnion(Self.list(folder).files) }
            return
        }
        if has(IN_IGNORED) || has(IN_MOVE_SELF) {
            // The folder itself was deleted (the kernel dropped the watch) or moved away from
            // under a folder not watched: its path names nothing now.
            let gone = state.withLock { state -> String? in
                guard let folder = state.folders[descriptor] else { return nil }
                Self.removeWatches(under: folder, in: &state)
                return folder
            }
            if let gone { changes.goneFolders.insert(gone) }
            return
        }
        guard let folder = state.withLock({ $0.folders[descriptor] }), !name.isEmpty, !name.hasPrefix(".") else { return }
        let path = folder + "/" + name
        if has(IN_ISDIR) {
            if has(IN_CREATE | IN_MOVED_TO) {
                changes.goneFolders.remove(path)
                addTree(path, into: &changes, problems: &problems)
            } else if has(IN_DELETE | IN_MOVED_FROM) {
                state.withLock { Self.removeWatches(under: path, in: &$0) }
                changes.goneFolders.insert(path)
                changes.newFolders.remove(path)
                let prefix = path + "/"
                changes.written = changes.written.filter { !$0.hasPrefix(prefix) }
            }
        } else if has(IN_CLOSE_WRITE | IN_MOVED_TO) {
            changes.written.insert(path)
            changes.removed.remove(path)
        } else if has(IN_DELETE | IN_MOVED_FROM) {
            changes.removed.insert(path)
            changes.written.remove(path)
        }
    }

    /// Watches `root` (created or moved in) and the folders under it, and reports their files as
    /// written. Each folder is watched before it is listed: a file made in it after the listing
    /// then arrives as an event, one made before is listed (a file seen both ways is one change).
    private func addTree(_ root: String, into changes: inout FolderChanges, problems: inout [String]) {
        var pending = [root]
        while let folder = pending.popLast() {
            let result = state.withLock { state -> WatchResult? in
                state.isStopped ? nil : Self.addWatch(folder, in: &state)
            }
            guard let result else { return }
            switch result {
            case .added: changes.newFolders.insert(folder)
            case .refused(let problem): if let problem { problems.append(problem) }
            case .already, .failed: break
            }
            let (files, subfolders) = Self.list(folder)
            changes.written.formUnion(files)
            changes.removed.subtract(files)
            pending.append(contentsOf: subfolders)
        }
    }

    /// The files and the folders in `folder`, by path; hidden ones and symbolic links left out
    /// (a link may point back up the tree).
    private static func list(_ folder: String) -> (files: [String], folders: [String]) {
        guard let directory = opendir(folder) else { return ([], []) }
        defer { closedir(directory) }
        var files: [String] = []
        var folders: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.isEmpty, !name.hasPrefix(".") else { continue }
            let path = folder + "/" + name
            var kind = entry.pointee.d_type
            if kind == UInt8(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: kind = UInt8(DT_DIR)
                case S_IFREG: kind = UInt8(DT_REG)
                default: continue
                }
            }
            if kind == UInt8(DT_DIR) {
                folders.append(path)
            } else if kind == UInt8(DT_REG) {
                files.append(path)
            }
        }
        return (files, folders)
    }
}
