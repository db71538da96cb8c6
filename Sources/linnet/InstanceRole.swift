import FoundationEssentials
import LinnetCore

/// Which linnet this process is, and so which bus names it takes and where it keeps its state.
/// No two processes share a state folder (``StateDirectoryLock``).
struct InstanceRole: Equatable {
    enum Kind: Equatable {
        /// The session's one linnet: `io.linnet.Linnet` and `org.mpris.MediaPlayer2.linnet`,
        /// state in `$XDG_STATE_HOME/linnet`. A second `linnet` hands over to it.
        case primary
        /// `--name NAME`: `org.mpris.MediaPlayer2.NAME`, state in `…/linnet/named/NAME`.
        case named
        /// `--new-instance`: `….instance<pid>`, scratch state in `…/linnet/instances/<pid>`,
        /// removed when it ends.
        case apart
    }

    let kind: Kind
    /// The bus name suffix: `org.mpris.MediaPlayer2.<busSuffix>`.
    let busSuffix: String

    init(name: String, newInstance: Bool) {
        if newInstance {
            kind = .apart
            busSuffix = "\(name).instance\(ProcessInfo.processInfo.processIdentifier)"
        } else {
            kind = name == Self.defaultName ? .primary : .named
            busSuffix = name
        }
    }

    static let defaultName = "linnet"

    /// The state folder this role asks for. `busSuffix` is a valid bus name's tail (checked
    /// when the options are parsed): no `/`, no empty or `..` element, so it is one folder name.
    func stateDirectory(_ directories: XDGDirectories) -> String {
        switch kind {
        case .primary: directories.linnetState
        case .named: directories.linnetState + "/named/" + busSuffix
        case .apart: Self.scratchParent(directories) + "/\(ProcessInfo.processInfo.processIdentifier)"
        }
    }

    /// Where scratch state lives: `--new-instance` players, and a linnet whose own folder is
    /// held by a linnet on another session bus.
    static func scratchParent(_ directories: XDGDirectories) -> String {
        directories.linnetState + "/instances"
    }
}
