// Links libdbus into the executable from its static archive, so the dynamic loader no longer maps
// libdbus-1.so at start, nor the seven libraries it needs only for socket activation (libsystemd
// and, through it, libgcrypt, libgpg-error, liblzma, libzstd, liblz4 and libcap), and resolves none of
// their symbols. libdbus's two calls into libsystemd (sd_listen_fds, sd_is_socket, made only by a
// DBusServer listening on a `systemd:` address) go through LazyLibraries' trampolines.
//
// Why autolink entries: every autolink entry comes after the objects and before the libraries
// named by pkg-config, so the archive supplies every dbus_* function before pkg-config's
// -ldbus-1; that one then supplies nothing and --as-needed (LazyLibraries' as_needed.S) drops it.
// The CDBus module map names no library of its own for the same reason.
//
// --exclude-libs keeps the archive's symbols out of the executable's dynamic symbol table.
// Otherwise GNU ld exports them (they are defined in libdbus-1.so too), and libpulse's calls
// into its own libdbus-1.so, opened later with GStreamer's pulsesink, would bind to this copy
// for some functions and to the shared one for others. StartupLibrariesTests checks both.
.section .swift1_autolink_entries, "e"
    .asciz "-Wl,--exclude-libs,libdbus-1.a"
    .asciz "-l:libdbus-1.a"

.section .note.GNU-stack, "", %progbits
