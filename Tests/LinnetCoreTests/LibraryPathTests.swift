@testable import LibraryFormats
import Foundation
import LinnetCore
import TestSupport
import Testing

/// Paths, URIs, natural order and the XDG directories every other component builds on.
@Suite struct LibraryPathTests {
    @Test func fileURIsEscapeAwkwardNamesAndRoundTrip() {
        let path = "/music/AC⁄DC #1/100% live & loud?.ogg"
        let uri = FileURI.uri(forPath: path)
        #expect(uri == "file:///music/AC%E2%81%84DC%20%231/100%25%20live%20&%20loud%3F.ogg")
        #expect(FileURI.path(fromURI: uri) == path)
        // The spelling `gio info` printed for this name on this machine.
        let glib = "file:///tmp/a%20b%3Bc=d!$&'()*+,:@~%23%25%3F%C3%A9.ogg"
        #expect(FileURI.uri(forPath: "/tmp/a b;c=d!$&'()*+,:@~#%?é.ogg") == glib)
        #expect(FileURI.path(fromURI: glib) == "/tmp/a b;c=d!$&'()*+,:@~#%?é.ogg")
        #expect(FileURI.path(fromURI: "file://localhost/a/b.ogg") == "/a/b.ogg")
        #expect(FileURI.path(fromURI: "file:/a/./c/../b.ogg") == "/a/b.ogg")
        #expect(FileURI.path(fromURI: "file://otherhost/a.ogg") == nil)
        #expect(FileURI.path(fromURI: "file:///a%00b.ogg") == nil)
        #expect(FileURI.path(fromURI: "http://host/a.ogg") == nil)
    }

    @Test func schemesAreNotConfusedWithWindowsDrives() {
        #expect(FileURI.scheme(of: "HTTPS://example.org/x") == "https")
        #expect(FileURI.scheme(of: "file:/a") == "file")
        #expect(FileURI.scheme(of: "C:\\Music\\a.mp3") == nil)
        #expect(FileURI.scheme(of: "some dir/a: b.ogg") == nil)
        #expect(FileURI.scheme(of: "1abc:x") == nil)
    }

    @Test func normalisationIsLexical() {
        #expect(FileURI.normalized("/a//b/./c/../d/") == "/a/b/d")
        #expect(FileURI.normalized("/../x") == "/x")
        #expect(FileURI.normalized("a/../../b") == "../b")
        #expect(FileURI.absolute("../x.ogg", relativeTo: "/m/list") == "/m/x.ogg")
        #expect(FileURI.absolute("/abs.ogg", relativeTo: "/m") == "/abs.ogg")
    }

    @Test func naturalOrderComparesNumbersByValue() {
        let names = ["10 x.ogg", "2 x.ogg", "track 9.ogg", "Track 10.ogg", "b.ogg", "A.ogg", "02 x.ogg", "1.ogg"]
        let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
        #expect(sorted == ["1.ogg", "02 x.ogg", "2 x.ogg", "10 x.ogg", "A.ogg", "b.ogg", "track 9.ogg", "Track 10.ogg"])
        // Digits of any length must not overflow.
        #expect(NaturalOrder.areInIncreasingOrder("99999999999999999999999", "100000000000000000000000"))
        #expect(NaturalOrder.sorted(names.reversed()) == sorted)
        // Names equal but for leading zeros or case still get one order, whatever the input order.
        let ties = ["x 01.ogg", "x 1.ogg", "X 1.ogg", "x 001.ogg", "é 1.ogg", "e\u{301} 1.ogg"]
        #expect(NaturalOrder.sorted(ties) == NaturalOrder.sorted(ties.reversed()))
        #expect(NaturalOrder.sorted(ties).count == ties.count)
    }

    @Test func xdgVariablesOverrideDefaultsAndRelativeOnesAreIgnored() throws {
        let home = try ScratchDirectory("linnet-home")
        let defaults = XDGDirectories(environment: [:], home: home.path)
        #expect(defaults.stateHome == home.path(".local/state"))
        #expect(defaults.dataHome == home.path(".local/share"))
        #expect(defaults.cacheHome == home.path(".cache"))
        #expect(defaults.configHome == home.path(".config"))
        #expect(defaults.musicDirectory == home.path("Music"))
        #expect(defaults.linnetState == home.path(".local/state/linnet"))
        #expect(defaults.linnetPlaylists == home.path(".local/share/linnet/playlists"))

        let custom = XDGDirectories(environment: [
            "HOME": home.path, "XDG_STATE_HOME": "/srv/state/", "XDG_DATA_HOME": "relative/data",
            "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "/srv/config",
        ])
        #expect(custom.home == home.path)
        #expect(custom.stateHome == "/srv/state")
        #expect(custom.linnetState == "/srv/state/linnet")
        #expect(custom.dataHome == home.path(".local/share"))
        #expect(custom.cacheHome == home.path(".cache"))
        #expect(custom.configHome == "/srv/config")
    }

    @Test func musicDirectoryComesFromUserDirsWithHomeExpanded() throws {
        let home = try ScratchDirectory("linnet-home")
        func music(_ file: String) throws -> String {
            try home.write(".config/user-dirs.dirs", file)
            return XDGDirectories(environment: [:], home: home.path).musicDirectory
        }
        #expect(try music("# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_MUSIC_DIR=\"$HOME/Mu sic\"\n") == home.path("Mu sic"))
        #expect(try music("XDG_MUSIC_DIR=\"/data/My \\\"Music\\\"\"\r\n") == "/data/My \"Music\"")
        // Relative values are not allowed by the spec; $HOME alone disables the directory.
        #expect(try music("XDG_MUSIC_DIR=\"Music2\"\n") == home.path("Music"))
        #expect(try music("XDG_MUSIC_DIR=\"$HOME/\"\n") == home.path("Music"))
        // The last assignment wins, as in the shell.
        #expect(try music("XDG_MUSIC_DIR=\"/a\"\nXDG_MUSIC_DIR=\"/b\"\n") == "/b")
        // XDG_CONFIG_HOME decides where user-dirs.dirs is read from.
        let elsewhere = try ScratchDirectory("linnet-config")
        try elsewhere.write("user-dirs.dirs", "XDG_MUSIC_DIR=\"$HOME/Tunes\"\n")
        let configured = XDGDirectories(environment: ["XDG_CONFIG_HOME": elsewhere.path], home: home.path)
        #expect(configured.musicDirectory == home.path("Tunes"))
    }
}
