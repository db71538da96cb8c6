#ifndef LINNET_LAZY_LIBRARIES_H
#define LINNET_LAZY_LIBRARIES_H
// Loads GStreamer, libpulse, SQLite and TagLib the first time one of their functions is called
// instead of when the process starts, so that linnet owns its bus name before the dynamic loader
// has mapped and relocated them (over thirty libraries with their dependencies; see README,
// "Startup and memory").
//
// How: for every function linnet calls in those libraries, the trampolines_<arch>.S files define
// a hidden function of the same name that jumps through a slot. A slot starts at a stub that
// calls `linnet_lazy_resolve`, which opens the library (RTLD_NOW | RTLD_GLOBAL, as the loader
// would have), fills every slot of that library at once and continues into the real function
// with the caller's registers untouched. The functions' C signatures never matter, so variadic
// ones (g_object_set) pass through as they are. The executable is linked with --as-needed (see
// as_needed.S), so the libraries are no longer DT_NEEDED once every call goes through a
// trampoline; the symbol lists are in symbols.inc, and a function missing from them shows as the
// library reappearing in the binary's needed list (StartupLibrariesTests checks that list).
//
// Only the asm files include this header's declarations; Swift code never calls into it.

/// One lazily loaded library: what to open, its functions' names and their jump slots.
/// Laid out by the `lazy_library_end` assembler macro; keep the two in step.
struct linnet_lazy_library {
    const char *soname;
    const char *const *names;
    void **slots;
    unsigned long count;
    unsigned long loaded;
};

/// Opens `library` if it is not open yet, fills all its slots and returns the address of
/// the function behind `slot` (one of `library->slots`). Ends the process with a message when the library or a function is missing,
/// as the dynamic loader would have at start.
void *linnet_lazy_resolve(struct linnet_lazy_library *library, void *const *slot);

#endif
