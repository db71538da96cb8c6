/// The one rule deciding what local media and streams linnet will play, whoever asks: the
/// command line, a playlist entry, the MPRIS `OpenUri` and `TrackList.AddTrack` calls, the
/// alarm sound and the Pomodoro music and bell.
///
/// A location is admitted when
/// - it is at most ``maximumLength`` bytes and holds no control characters;
/// - as a URI, it is `http(s)` with a host, or `file:` naming this machine (no host or
///   `localhost`) with no query or fragment, its escapes decoded to bytes (``MediaAddress``);
/// - as a local path, it names a regular file (not a folder, FIFO, device or socket) outside
///   `/proc`, `/sys`, `/dev` and every other kernel file system, whether reached directly or
///   through a symlink, with a known audio extension (or, where the caller expands them, a
///   playlist extension), that this user can open for reading.
///
/// The syntax half (``MediaAddress/parse(uri:maxLength:)``) and the verdict on a file
/// (``verdict(on:for:extensions:)``) are pure; ``LocalFileFacts/inspect(_:)`` gathers the facts.
public enum MediaAdmissionRule {
    /// The longest location accepted, in UTF-8 bytes.
    public static let maximumLength = 8192

    /// Audio file name extensions (lower case) played as files and found in folders.
    public static let audioExtensions: Set<String> = [
        "aac", "ac3", "aif", "aifc", "aiff", "alac", "amr", "ape", "au", "caf", "dff", "dsf", "flac",
        "m4a", "m4b", "mka", "mp1", "mp2", "mp3", "mpc", "oga", "ogg", "opus", "snd", "spx", "tta",
        "wav", "wave", "weba", "webm", "wma", "wv",
    ]

    /// Folders whose entries are never media: the kernel's views of processes, devices and
    /// itself. Reading `/proc/self/environ` or `/proc/self/mem` would hand a client the
    /// process's secrets; opening a device can act on hardware.
    public static let systemFolders = ["/proc", "/sys", "/dev"]

    /// Why `text` fails the checks every location gets before anything else: its length
    /// (measured first, so an oversized input costs nothing more), emptiness, control characters.
    public static func refusalOfText(_ text: String, maxLength: Int = maximumLength) -> MediaRefusal? {
        let length = text.utf8.count
        guard length <= maxLength else { return .tooLong(length: length, limit: maxLength) }
        guard length > 0 else { return .empty }
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return .controlCharacters }
        return nil
    }

    /// Whether `facts` show a file inside ``systemFolders`` once symlinks are resolved, or on
    /// the file system of one of them (the kernel's other file systems — debugfs, cgroup,
    /// securityfs, devpts… — are mounted inside them).
    public static func isSystemLocation(_ facts: LocalFileFacts) -> Bool {
        if facts.onSystemFileSystem { return true }
        guard let canonical = facts.canonicalPath else { return false }
        return systemFolders.contains { canonical.isWithin($0) }
    }

    /// Why the local `path`, as `facts` describe it, may not be played; nil when it may.
    /// `extensions` are the file name extensions the caller accepts (audio, and playlists
    /// where it expands them). A folder is refused: callers that walk folders do so first.
    public static func verdict(on facts: LocalFileFacts, for path: LocalPath, extensions: Set<String>) -> MediaRefusal? {
        if let error = facts.examineError { return .unreadable(error) }
        switch facts.kind {
        case .missing: return .missing
        case .directory: return .directory
        case .fifo: return .notRegularFile("a FIFO")
        case .characterDevice: return .notRegularFile("a character device")
        case .blockDevice: return .notRegularFile("a block device")
        case .socket: return .notRegularFile("a socket")
        case .other: return .notRegularFile("an unknown kind of file")
        case .regular: break
        }
        guard !isSystemLocation(facts) else { return .systemFile }
        let ext = path.fileExtension
        guard extensions.contains(ext) else { return .unsupportedExtension(ext) }
        if let error = facts.openError { return .unreadable(error) }
        return nil
    }

    /// The whole rule for a URI a client hands over: the address to queue, or why not.
    /// Local files must be audio files (no folders or playlists: a URI names one track).
    public static func admit(
        uri: String, maxLength: Int = maximumLength, inspect: (LocalPath) -> LocalFileFacts = LocalFileFacts.inspect
    ) -> Result<MediaAddress, MediaRefusal> {
        let address: MediaAddress
        switch MediaAddress.parse(uri: uri, maxLength: maxLength) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): address = parsed
        }
        guard case .local(let path) = address else { return .success(address) }
        if let refusal = verdict(on: inspect(path), for: path, extensions: audioExtensions) { return .failure(refusal) }
        return .success(address)
    }
}
