#ifndef LINNET_TAGLIB_H
#define LINNET_TAGLIB_H
// TagLib for Swift, through a plain C surface. TagLib 1.13's own C API (tag_c.h) offers only
// title, artist, album, comment, genre, year and track as single strings, lengths in whole
// seconds, and a global string list that is not thread-safe; it has no property map (added in
// TagLib 2.0), so album artists, disc numbers, lyrics, ReplayGain and pictures are out of its
// reach. This shim reads them with TagLib's C++ API and hands out only C types, so no C++ header
// reaches Swift (importing one breaks the Swift module, see the platform notes).
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What TagLib read from one file: its property map as key/value pairs (a key repeats for each
/// value), its length, and its front cover (or else first picture), if any.
typedef struct linnet_taglib_tags linnet_taglib_tags;

/// Reads `path` (a local file path). Returns NULL when TagLib cannot open or parse it (missing,
/// unsupported format, corrupt); `linnet_taglib_free` releases the result. Safe to call from
/// several threads at once on different files.
linnet_taglib_tags *linnet_taglib_read(const char *path);

/// Releases what `linnet_taglib_read` returned.
void linnet_taglib_free(linnet_taglib_tags *tags);

/// How many key/value pairs the property map holds.
size_t linnet_taglib_count(const linnet_taglib_tags *tags);
/// The upper-case property key of pair `index` (e.g. "TITLE", "ALBUMARTIST", "LYRICS"), UTF-8.
const char *linnet_taglib_key(const linnet_taglib_tags *tags, size_t index);
/// The value of pair `index`, UTF-8.
const char *linnet_taglib_value(const linnet_taglib_tags *tags, size_t index);

/// The audio length in milliseconds, or -1 when the file declares none.
int64_t linnet_taglib_length_ms(const linnet_taglib_tags *tags);

/// How many embedded pictures the file has.
size_t linnet_taglib_picture_count(const linnet_taglib_tags *tags);
/// The bytes of the chosen picture (front cover, else the first), or NULL when there is none;
/// `size` receives their count.
const uint8_t *linnet_taglib_picture(const linnet_taglib_tags *tags, size_t *size);
/// The chosen picture's MIME type (may be empty).
const char *linnet_taglib_picture_type(const linnet_taglib_tags *tags);

#ifdef __cplusplus
}
#endif
#endif
