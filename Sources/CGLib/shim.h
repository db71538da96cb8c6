#ifndef LINNET_CGLIB_SHIM_H
#define LINNET_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>

/// Callback shape of a GUnixFDSource.
typedef gboolean (*linnet_g_fd_callback)(gint fd, GIOCondition condition, gpointer user_data);

/// GUnixFDSource invokes a GUnixFDSourceFunc through the generic GSourceFunc slot; that function
/// pointer cast is a C idiom Swift cannot express, so it lives here.
static inline void linnet_g_source_set_fd_callback(GSource *source, linnet_g_fd_callback callback,
                                                   gpointer user_data, GDestroyNotify notify) {
    g_source_set_callback(source, (GSourceFunc)(void *)callback, user_data, notify);
}

/// G_SOURCE_CONTINUE / G_SOURCE_REMOVE and G_PRIORITY_* are macros; Swift does not import them.
static inline gboolean linnet_g_source_continue(void) { return G_SOURCE_CONTINUE; }
static inline gboolean linnet_g_source_remove(void) { return G_SOURCE_REMOVE; }
static inline gint linnet_g_priority_default(void) { return G_PRIORITY_DEFAULT; }
static inline gint linnet_g_priority_high(void) { return G_PRIORITY_HIGH; }

#endif
