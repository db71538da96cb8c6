#ifndef LINNET_CSQLITE_SHIM_H
#define LINNET_CSQLITE_SHIM_H
// SQLite's C API for Swift. SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1) that
// Swift cannot import, so the text binding that needs it is wrapped here.
#include <sqlite3.h>

/// Binds UTF-8 text that SQLite copies at once (SQLITE_TRANSIENT is a cast macro).
static inline int linnet_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once (SQLITE_TRANSIENT is a cast macro).
static inline int linnet_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
