// swift-tools-version: 6.0
import PackageDescription

/// Linnet: a GStreamer music service for Linux, controlled over D-Bus through MPRIS 2.2.
/// See ARCHITECTURE in the shared docs: data flows sound server → GStreamer → player core → MPRIS → bus.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Linnet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "EventLoop", targets: ["EventLoop"]),
        .library(name: "MPRIS", targets: ["MPRIS"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "PlayerCore", targets: ["PlayerCore"]),
        .library(name: "PlayerTestKit", targets: ["PlayerTestKit"]),
        .library(name: "Timekeeping", targets: ["Timekeeping"]),
        .executable(name: "linnet", targets: ["linnet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Tests only: the launch helper for linnet under test (see Tests/TestSupport/SpawnedProcess).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // C edges: found through pkg-config, wrappers for macros and variadics in each shim.h.
        .systemLibrary(
            name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(
            name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CGStreamer", path: "Sources/CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-pbutils-1.0 gstreamer-audio-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // libpulse (apt: libpulse-dev) without pkg-config: see the note in its shim.h.
        .systemLibrary(name: "CPulse", path: "Sources/CPulse"),
        // TagLib (apt: libtag1-dev) through a C++ shim with a C-only header: TagLib 1.13's own C API
        // has no property map, lyrics, ReplayGain or pictures (see linnet_taglib.h).
        .target(name: "CTagLibShim", linkerSettings: [.linkedLibrary("tag")]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // glibc's <malloc.h> (malloc_trim, mallopt), which Glibc's Swift module leaves out.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // GStreamer, libpulse, SQLite and TagLib opened on their first call, not at start (see
        // its header, and as_needed.S for how they leave the needed list of what links it).
        .target(name: "LazyLibraries"),

        // The one GLib main-loop thread that carries D-Bus dispatch and, later, the GStreamer bus.
        .target(name: "EventLoop", dependencies: ["CGLib"], swiftSettings: strictSettings),
        .target(name: "DBus", dependencies: ["CDBus", "EventLoop"], swiftSettings: strictSettings),
        // A reusable MPRIS 2.2 server: value types, the four interfaces, a "now playing" facade.
        .target(name: "MPRIS", dependencies: ["DBus"], swiftSettings: strictSettings),
        .executableTarget(name: "NowPlayingExample", dependencies: ["MPRIS"], swiftSettings: strictSettings),
        .executableTarget(
            name: "QueueEditBench", dependencies: ["PlayerCore"], path: "Benchmarks/queue/ShuffledEdits",
            swiftSettings: strictSettings),
        .target(
            name: "Playback", dependencies: ["CGStreamer", "CPulse", "CTagLibShim", "EventLoop", "LazyLibraries"],
            swiftSettings: strictSettings),
        // The persistent tag cache (SQLite) the scanner consults before reading a file.
        .target(
            name: "LibraryCache",
            dependencies: ["CSQLite", "LazyLibraries", "Playback", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        // The one time vocabulary of the core: Swift's Duration for spans, WallInstant and
        // AwakeInstant for the two timelines, the clock protocol the clock features are driven by.
        // Imports nothing at all, so PlayerCore and ClockRules can share it and stay pure.
        .target(name: "Timekeeping", swiftSettings: strictSettings),
        // The player's rules as values: the queue and the player state machine. Imports nothing of
        // ours but the time vocabulary and no system library, so its tests need no bus, engine or
        // clock.
        .target(name: "PlayerCore", dependencies: ["Timekeeping"], swiftSettings: strictSettings),
        // Alarm, DST, sleep-timer and Pomodoro rules as values over Foundation's calendar.
        .target(name: "ClockRules", dependencies: ["Timekeeping"], swiftSettings: strictSettings),
        // Playlist (M3U, PLS, XSPF) and LRC parsing, file-URI and path rules, bounded file reads.
        .target(name: "LibraryFormats", swiftSettings: strictSettings),
        // linnet's dealings with the rest of the desktop over D-Bus: other players' audio focus,
        // notifications, the suspend inhibitor.
        .target(
            name: "DesktopClients",
            dependencies: ["DBus", "EventLoop", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        // For anyone extending the player: a harness that feeds the machine and reads its effects,
        // a scripted engine that stands in for GStreamer under the real owner, and a manual clock
        // that the clock features run on in tests.
        .target(
            name: "PlayerTestKit", dependencies: ["PlayerCore", "Playback", "EventLoop", "Timekeeping"],
            swiftSettings: strictSettings),
        // The owner of the player machine, the MPRIS bridge, persistence, media sources, clock
        // features and desktop clients around it.
        .target(
            name: "LinnetCore",
            dependencies: [
                "PlayerCore", "ClockRules", "LibraryFormats", "DesktopClients", "MPRIS", "Playback", "DBus", "EventLoop",
                "Timekeeping",
                "CMalloc",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "linnet",
            dependencies: [
                "LinnetCore", "PlayerCore", "ClockRules", "LibraryFormats", "DesktopClients", "DBus", "EventLoop", "MPRIS",
                "Playback", "Timekeeping", "LibraryCache", "CMalloc",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),

        .target(
            name: "TestSupport",
            dependencies: [
                "DBus", "EventLoop", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "EventLoopTests", dependencies: ["EventLoop", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "DBusTests", dependencies: ["DBus", "EventLoop", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "MPRISTests", dependencies: ["MPRIS", "DBus", "EventLoop", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "ClockRulesTests", dependencies: ["ClockRules", "Timekeeping"], swiftSettings: strictSettings),
        .testTarget(
            name: "PlayerCoreTests", dependencies: ["PlayerCore", "PlayerTestKit", "Timekeeping"], swiftSettings: strictSettings),
        .testTarget(
            name: "LinnetCoreTests",
            dependencies: [
                "LinnetCore", "PlayerCore", "PlayerTestKit", "ClockRules", "LibraryFormats", "DesktopClients", "MPRIS",
                "Playback", "DBus",
                "EventLoop", "TestSupport", "Timekeeping", "LibraryCache",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LinnetTests",
            dependencies: [
                "DBus", "MPRIS", "EventLoop", "LinnetCore", "PlayerCore", "ClockRules", "LibraryFormats", "DesktopClients",
                "Playback", "LibraryCache",
                "TestSupport", "linnet", "Timekeeping", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LibraryCacheTests",
            dependencies: ["LibraryCache", "Playback", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PlaybackTests", dependencies: ["Playback", "CGStreamer", "EventLoop", "TestSupport"],
            swiftSettings: strictSettings),
        // Reads the manifest and the sources: every import is declared, PlayerCore stays pure.
        .testTarget(name: "PackageLayoutTests", swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
