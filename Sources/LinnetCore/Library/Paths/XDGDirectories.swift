import LibraryFormats
import FoundationEssentials
import Glibc

/// The XDG base directories and music directory of the user, and the places linnet keeps its
/// files under them.
///
/// Follows the XDG Base Directory spec: a variable that is unset, empty or relative is ignored
/// and the default under the home directory is used.
public struct XDGDirectories: Sendable, Hashable {
    /// The home directory every default is relative to.
    public let home: String
    /// `$XDG_STATE_HOME`, or `~/.local/state`: state that should survive restarts.
    public let stateHome: String
    /// `$XDG_DATA_HOME`, or `~/.local/share`: user data such as playlists.
    public let dataHome: String
    /// `$XDG_CACHE_HOME`, or `~/.cache`: files that can be recreated.
    public let cacheHome: String
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public let configHome: String
    /// `XDG_MUSIC_DIR` from `$XDG_CONFIG_HOME/user-dirs.dirs`, or `~/Music`.
    ///
    /// A music directory set to the home directory itself (xdg-user-dirs' way of disabling it)
    /// also gives `~/Music`, so that linnet never queues a whole home directory by default.
    public let musicDirectory: String

    /// Where linnet saves its session: `$XDG_STATE_HOME/linnet`.
    public var linnetState: String { stateHome + "/linnet" }
    /// Where the user's own linnet playlists live: `$XDG_DATA_HOME/linnet/playlists`.
    public var linnetPlaylists: String { dataHome + "/linnet/playlists" }
    /// Linnet's cache (art, demo tracks): `$XDG_CACHE_HOME/linnet`.
    public var linnetCache: String { cacheHome + "/linnet" }
    /// Where the synthesised demo tracks are written: `$XDG_CACHE_HOME/linnet/demo`.
    public var linnetDemo: String { linnetCache + "/demo" }

    /// The directories for `environment` (nil: this process's environment), with `home`
    /// overriding `$HOME` (for tests).
    public init(environment: [String: String]? = nil, home: String? = nil) {
        let environment = environment ?? Self.processVariables()
        let home = FileURI.normalized(home ?? Self.absolute(environment["HOME"]) ?? URL.homeDirectory.path)
        self.home = home
        func base(_ variable: String, _ fallback: String) -> String {
            Self.absolute(environment[variable]).map(FileURI.normalized) ?? home + "/" + fallback
        }
        stateHome = base("XDG_STATE_HOME", ".local/state")
        dataHome = base("XDG_DATA_HOME", ".local/share")
        cacheHome = base("XDG_CACHE_HOME", ".cache")
        configHome = base("XDG_CONFIG_HOME", ".config")
        let configured = (try? BoundedFileReader.read(configHome + "/user-dirs.dirs", limit: 64 * 1024))
            .flatMap { try? TextDecoding.decode($0) }
            .flatMap { UserDirsFile.value(of: "XDG_MUSIC_DIR", in: $0, home: home) }
        if let configured, configured != home {
            musicDirectory = configured
        } else {
            musicDirectory = home + "/Music"
        }
    }

    /// This process's values of the variables the directories come from, each read with getenv:
    /// ProcessInfo's environment copies every variable, a cost paid before linnet's bus name.
    private static func processVariables() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}

/// Reads `user-dirs.dirs`, a shell fragment of lines `XDG_xxx_DIR="$HOME/yyy"` or
/// `XDG_xxx_DIR="/absolute"`, without running a shell.
enum UserDirsFile {
    /// The path `variable` is set to in `text`, with `$HOME` expanded; the last assignment wins,
    /// as in the shell. Values that are neither absolute nor `$HOME`-relative are ignored.
    static func value(of variable: String, in text: String, home: String) -> String? {
        var result: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "="),
                  line[..<equals] == variable else { continue }
            guard let value = unquote(line[line.index(after: equals)...]) else { continue }
            if value == "$HOME" || value.hasPrefix("$HOME/") {
                result = FileURI.normalized(home + "/" + value.dropFirst("$HOME".count))
            } else if value.hasPrefix("/") {
                result = FileURI.normalized(value)
            }
        }
        return result
    }

    /// The contents of a double-quoted shell word with `\` escapes, or an unquoted word.
    private static func unquote(_ word: Substring) -> String? {
        let trimmed = String(word.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard trimmed.hasPrefix("\"") else { return trimmed.isEmpty ? nil : trimmed }
        var value = ""
        var escaped = false
        for character in trimmed.dropFirst() {
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return value
            } else {
                value.append(character)
            }
        }
        return nil
    }
}
