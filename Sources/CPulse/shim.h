#ifndef LINNET_CPULSE_SHIM_H
#define LINNET_CPULSE_SHIM_H
// libpulse for Swift: the client API that watches which device linnet's stream plays to, run on
// linnet's own GLib main context (libpulse-mainloop-glib) so it needs no thread and no polling.
// Small helpers are `static inline` functions prefixed `linnet_pa_`.
//
// No pkg-config for this target: libpulse's adds only `-D_REENTRANT` and glib's include path,
// which SwiftPM rejects with a warning on every build. The headers are in the standard path,
// the libraries are linked by the module map, and the three functions of
// <pulse/glib-mainloop.h> are declared here with GLib's context as an opaque struct, so that
// GLib's headers are not needed (and not imported a second time beside CGLib's).
#include <pulse/pulseaudio.h>

struct _GMainContext;
typedef struct pa_glib_mainloop pa_glib_mainloop;
/// Declared as in <pulse/glib-mainloop.h> (libpulse-mainloop-glib, stable since 0.9).
pa_glib_mainloop *pa_glib_mainloop_new(struct _GMainContext *c);
void pa_glib_mainloop_free(pa_glib_mainloop *g);
pa_mainloop_api *pa_glib_mainloop_get_api(pa_glib_mainloop *g);

/// The facility bits of a subscription event (sink, sink input…), kept out of Swift's
/// enum-to-integer casts.
static inline int linnet_pa_event_facility(pa_subscription_event_type_t type) {
    return (int)(type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK);
}

/// The kind of a subscription event: new, change or remove.
static inline int linnet_pa_event_kind(pa_subscription_event_type_t type) {
    return (int)(type & PA_SUBSCRIPTION_EVENT_TYPE_MASK);
}

#endif
