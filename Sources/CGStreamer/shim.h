#ifndef LINNET_CGSTREAMER_SHIM_H
#define LINNET_CGSTREAMER_SHIM_H
// GStreamer for Swift. Wrappers for macros and variadic functions that Swift cannot import
// are added here as `static inline` functions prefixed `linnet_gst_`, each saying why it exists.
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <gst/audio/audio.h>

// MARK: GObject properties
// g_object_set/g_object_get are variadic, and G_OBJECT/G_OBJECT_GET_CLASS are cast macros, so
// Swift cannot call them; one typed wrapper per value type keeps the C side trivial.

/// Sets a string property (g_object_set is variadic).
static inline void linnet_gst_set_string(gpointer object, const gchar *name, const gchar *value) {
    g_object_set(object, name, value, NULL);
}

/// Sets a double property (g_object_set is variadic).
static inline void linnet_gst_set_double(gpointer object, const gchar *name, gdouble value) {
    g_object_set(object, name, value, NULL);
}

/// Sets an unsigned integer or flags property, such as playbin's "flags" (g_object_set is
/// variadic).
static inline void linnet_gst_set_uint(gpointer object, const gchar *name, guint value) {
    g_object_set(object, name, value, NULL);
}

/// Sets a boolean property (g_object_set is variadic).
static inline void linnet_gst_set_boolean(gpointer object, const gchar *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

/// Sets an object or boxed property, such as an element or a GstStructure (g_object_set is
/// variadic).
static inline void linnet_gst_set_pointer(gpointer object, const gchar *name, gpointer value) {
    g_object_set(object, name, value, NULL);
}

/// Reads a string property; the caller frees the result with g_free (g_object_get is variadic).
static inline gchar *linnet_gst_get_string(gpointer object, const gchar *name) {
    gchar *value = NULL;
    g_object_get(object, name, &value, NULL);
    return value;
}

/// Reads a double property such as playbin's "volume" (g_object_get is variadic).
static inline gdouble linnet_gst_get_double(gpointer object, const gchar *name) {
    gdouble value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}

/// Reads a boolean property such as playbin's "mute" (g_object_get is variadic).
static inline gboolean linnet_gst_get_boolean(gpointer object, const gchar *name) {
    gboolean value = FALSE;
    g_object_get(object, name, &value, NULL);
    return value;
}

/// Whether `object` has a property called `name`; G_OBJECT_GET_CLASS is a cast macro.
static inline gboolean linnet_gst_has_property(gpointer object, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

// MARK: Signals
// g_signal_connect is a macro, and g_signal_connect_data takes the handler as an untyped GCallback:
// the cast from a typed function pointer is a C idiom Swift cannot express.

/// Handler shape of playbin's "about-to-finish".
typedef void (*linnet_gst_about_to_finish_callback)(GstElement *playbin, gpointer user_data);

/// Connects playbin's "about-to-finish"; `notify` releases `user_data` when the handler goes.
static inline gulong linnet_gst_connect_about_to_finish(
    GstElement *playbin, linnet_gst_about_to_finish_callback callback, gpointer user_data,
    GClosureNotify notify) {
    return g_signal_connect_data(playbin, "about-to-finish", (GCallback)(void *)callback,
                                 user_data, notify, (GConnectFlags)0);
}

/// Handler shape of the signals that name a child element: playbin's "element-setup", a bin's
/// "element-removed".
typedef void (*linnet_gst_child_element_callback)(GstElement *bin, GstElement *element,
                                                  gpointer user_data);

/// Connects `signal` (one of the above) on `bin`; `notify` releases `user_data` when the handler
/// goes.
static inline gulong linnet_gst_connect_child_element(
    GstElement *bin, const gchar *signal, linnet_gst_child_element_callback callback,
    gpointer user_data, GClosureNotify notify) {
    return g_signal_connect_data(bin, signal, (GCallback)(void *)callback, user_data, notify,
                                 (GConnectFlags)0);
}

/// Handler shape of GObject's "notify" signal.
typedef void (*linnet_gst_notify_callback)(GObject *object, GParamSpec *property, gpointer user_data);

/// Connects a detailed "notify::<property>" signal; `notify` releases `user_data` when the
/// handler goes.
static inline gulong linnet_gst_connect_notify(
    gpointer object, const gchar *detailed_signal, linnet_gst_notify_callback callback,
    gpointer user_data, GClosureNotify notify) {
    return g_signal_connect_data(object, detailed_signal, (GCallback)(void *)callback, user_data,
                                 notify, (GConnectFlags)0);
}

// MARK: Casts and type checks
// GST_ELEMENT_FACTORY / GST_PLUGIN_FEATURE_NAME / GST_IS_* are macros over GType checks.

/// The factory name of an element ("fakesink", "pulsesink"), or NULL for elements made without a
/// factory such as bins built by gst_parse_bin_from_description.
static inline const gchar *linnet_gst_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : NULL;
}

/// Whether `element` is a bin (GST_IS_BIN is a macro).
static inline gboolean linnet_gst_is_bin(GstElement *element) { return GST_IS_BIN(element); }

/// Whether a discoverer stream info describes a container (GST_IS_DISCOVERER_CONTAINER_INFO is a
/// macro).
static inline gboolean linnet_gst_is_container_info(GstDiscovererStreamInfo *info) {
    return GST_IS_DISCOVERER_CONTAINER_INFO(info);
}

/// Whether a discoverer stream info describes an audio stream (GST_IS_DISCOVERER_AUDIO_INFO is a
/// macro).
static inline gboolean linnet_gst_is_audio_info(GstDiscovererStreamInfo *info) {
    return GST_IS_DISCOVERER_AUDIO_INFO(info);
}

#endif
