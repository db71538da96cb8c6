#ifndef LINNET_LIBRARY_UNLOADING_H
#define LINNET_LIBRARY_UNLOADING_H
// Closing SQLite and TagLib again while nothing uses them, so a player that finished reading its
// library does not keep their code resident (about 2 MiB while playing one file; see README,
// "Startup and memory"). They are opened again by their next call, through the same trampolines
// that opened them the first time (linnet_lazy_libraries.h).
//
// The contract: every use of one of these libraries lies between `linnet_library_use_begin` and
// `linnet_library_use_end`, where a use is everything that calls into the library or holds what
// it returned (an open SQLite connection with its statements; one TagLib file read). Unloading
// happens only with no use in progress, under the same lock that opening takes, and puts every
// function's slot back to its stub first, so a later call opens the library again.

/// The lazily loaded libraries that can be closed again.
typedef enum {
    linnet_unloadable_sqlite = 0,
    linnet_unloadable_taglib = 1,
} linnet_unloadable_library;

/// A use of `library` starts: it is not closed until the matching `linnet_library_use_end`.
void linnet_library_use_begin(linnet_unloadable_library library);

/// A use of `library` that `linnet_library_use_begin` started has ended.
void linnet_library_use_end(linnet_unloadable_library library);

/// Closes `library` if it is open and no use is in progress; returns 1 when it closed it.
int linnet_library_unload_if_unused(linnet_unloadable_library library);

/// Whether `library` is open now (for tests and logs).
int linnet_library_is_loaded(linnet_unloadable_library library);

#endif
