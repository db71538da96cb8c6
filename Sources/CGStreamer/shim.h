#ifndef LINNET_CGSTREAMER_SHIM_H
#define LINNET_CGSTREAMER_SHIM_H
// GStreamer for Swift. Wrappers for macros and variadic functions that Swift cannot import
// are added here as `static inline` functions prefixed `linnet_gst_`, each saying why it exists.
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <gst/audio/audio.h>
#endif
