#ifndef LINNET_CPULSE_SHIM_H
#define LINNET_CPULSE_SHIM_H
// libpulse for Swift: the client API that watches which device linnet's stream plays to, run on
// linnet's own GLib main context (libpulse-mainloop-glib) so it needs no thread and no polling.
// Wrappers for macros Swift cannot import are `static inline` functions prefixed `linnet_pa_`.
#include <pulse/pulseaudio.h>
#include <pulse/glib-mainloop.h>

/// PA_INVALID_INDEX is a cast macro (`(uint32_t) -1`), which Swift does not import.
static inline uint32_t linnet_pa_invalid_index(void) { return PA_INVALID_INDEX; }

/// The facility bits of a subscription event (sink, sink input…): PA_SUBSCRIPTION_EVENT_FACILITY_MASK
/// is an enum constant, but the masking is easier to read here than as bit-casts in Swift.
static inline int linnet_pa_event_facility(pa_subscription_event_type_t type) {
    return (int)(type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK);
}

/// The kind of a subscription event: new, change or remove.
static inline int linnet_pa_event_kind(pa_subscription_event_type_t type) {
    return (int)(type & PA_SUBSCRIPTION_EVENT_TYPE_MASK);
}

#endif
