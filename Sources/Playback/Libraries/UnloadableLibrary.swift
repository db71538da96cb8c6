internal import LazyLibraries

/// SQLite or TagLib, which linnet closes again once nothing has used them for ``idleDelay``, so
/// a player that finished reading its library does not keep their code resident (see
/// `linnet_library_unloading.h` in LazyLibraries for the mechanism).
///
/// Every use must lie inside ``beginUse()`` and ``endUse()`` (or ``withUse(_:)``): a use is
/// every call into the library and the life of anything it returned (an SQLite connection and
/// its statements, one TagLib read). The next call after a closing opens the library again.
public final class UnloadableLibrary: Sendable {
    /// SQLite: in use while the library cache has its database open.
    public static let sqlite = UnloadableLibrary(linnet_unloadable_sqlite)
    /// TagLib: in use during each file's read.
    public static let taglib = UnloadableLibrary(linnet_unloadable_taglib)

    /// How long a library stays open after its last use ended. Long enough that a scan, whose
    /// reads follow each other within milliseconds, opens it once; reopening costs ~1-3 ms.
    public static let idleDelay: Duration = .seconds(2)

    private let library: linnet_unloadable_library
    private let idle: IdleTimer

    private init(_ library: linnet_unloadable_library) {
        self.library = library
        idle = IdleTimer(delay: Self.idleDelay)
        idle.onIdle { _ = linnet_library_unload_if_unused(library) }
    }

    /// A use starts: the library stays open until the matching ``endUse()``.
    public func beginUse() {
        linnet_library_use_begin(library)
    }

    /// A use that ``beginUse()`` started ended: the library closes after ``idleDelay`` unless
    /// another use starts meanwhile.
    public func endUse() {
        linnet_library_use_end(library)
        idle.touch()
    }

    /// Runs `body` as one use.
    public func withUse<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        beginUse()
        defer { endUse() }
        return try body()
    }

    /// Closes the library now if it is open and unused; whether it did.
    @discardableResult
    public func unloadIfUnused() -> Bool {
        linnet_library_unload_if_unused(library) != 0
    }

    /// Whether the library is open.
    public var isLoaded: Bool { linnet_library_is_loaded(library) != 0 }
}
