import Foundation
import Testing
import TestSupport

/// The libraries the dynamic loader maps before linnet's `main`: GStreamer, libpulse, SQLite and
/// TagLib are opened on first use (the LazyLibraries target), so they must not be in the binary's
/// needed list, where they would cost their loading and relocation before linnet owns its name.
@Suite struct StartupLibrariesTests {
    @Test(.timeLimit(.minutes(1)))
    func gstreamerPulseSQLiteAndTagLibAreNotLoadedAtStart() throws {
        // ldd has the dynamic loader list what it would load for the binary, without running it.
        let listing = try ExternalTool.run("ldd", [LinnetWorld.binary.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let loaded = listing.stdout.split(separator: "\n").compactMap {
            $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
        }
        // The listing works: what linnet needs at start is there.
        #expect(loaded.contains { $0.hasPrefix("libdbus-1.so") }, "\(listing.stdout)")
        #expect(loaded.contains { $0.hasPrefix("libglib-2.0.so") }, "\(listing.stdout)")
        let deferred = [
            "libgstreamer-1.0.so", "libgstpbutils-1.0.so", "libgobject-2.0.so", "libpulse.so", "libpulse-mainloop-glib.so",
            "libsqlite3.so", "libtag.so",
        ]
        let early = loaded.filter { name in deferred.contains { name.hasPrefix($0) } }
        #expect(early.isEmpty, "loaded at start although opened on first use: \(early); a function missing from Sources/LazyLibraries/symbols.inc links the library again")
    }
}
