// Links every executable that contains LazyLibraries with --as-needed, so GStreamer, libpulse,
// SQLite and TagLib, whose calls all go through the trampolines, drop out of its DT_NEEDED list although
// their module maps and pkg-config still name them.
//
// Why an autolink entry: --as-needed only affects the libraries after it on the linker's command
// line, and SwiftPM puts a target's linker flags after every library; the entries that
// swift-autolink-extract collects from the objects come first, ahead of the module maps' and
// pkg-config's libraries, and this object comes before the Swift objects that name them. If a
// toolchain ever orders them differently, the libraries are loaded at start again (a slower
// start, nothing else), and StartupLibrariesTests reports it.
.section .swift1_autolink_entries, "e"
    .asciz "-Wl,--as-needed"

.section .note.GNU-stack, "", %progbits
