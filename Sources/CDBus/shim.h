#ifndef LINNET_CDBUS_SHIM_H
#define LINNET_CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <stdlib.h>

/// DBUS_TYPE_* are character macros Swift does not import; Swift code spells type codes itself.
/// The timeout constant is a macro too.
static inline int linnet_dbus_timeout_use_default(void) { return DBUS_TIMEOUT_USE_DEFAULT; }
static inline int linnet_dbus_timeout_infinite(void) { return DBUS_TIMEOUT_INFINITE; }

/// DBUS_MAXIMUM_* limits are macros.
static inline int linnet_dbus_maximum_name_length(void) { return DBUS_MAXIMUM_NAME_LENGTH; }
static inline int linnet_dbus_maximum_signature_length(void) { return DBUS_MAXIMUM_SIGNATURE_LENGTH; }

#endif
