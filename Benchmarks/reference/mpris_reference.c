/*
 * mpris_reference: the floor for the MPRIS benchmark.
 *
 * A minimal single-threaded MPRIS service on libdbus, written for this benchmark only (it is
 * not part of the Swift package). It owns org.mpris.MediaPlayer2.reference, answers
 * Properties.Get/GetAll for the root and Player interfaces from static values (Position runs
 * from a monotonic clock while "playing"), and signals PlayPause/Play/Pause/Next/Previous at once
 * with PropertiesChanged. It plays no audio: what it costs is what serving the bus costs.
 *
 * Build: cc -O2 -o mpris_reference mpris_reference.c $(pkg-config --cflags --libs dbus-1)
 * Run:   DBUS_SESSION_BUS_ADDRESS=... ./mpris_reference
 */
#include <dbus/dbus.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PATH "/org/mpris/MediaPlayer2"
#define ROOT "org.mpris.MediaPlayer2"
#define PLAYER "org.mpris.MediaPlayer2.Player"
#define PROPERTIES "org.freedesktop.DBus.Properties"
#define TRACKS 4

static int playing = 1;
static int track = 0;
static int64_t position_base_us = 0;   /* position when the clock anchor was taken */
static int64_t anchor_us = 0;          /* monotonic time of that anchor */
static DBusConnection *bus;

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t position_us(void) {
    return playing ? position_base_us + (now_us() - anchor_us) : position_base_us;
}

/* Appends one {sv} entry whose variant holds a basic value. */
static void dict_basic(DBusMessageIter *dict, const char *key, int type, const void *value) {
    char signature[2] = {(char)type, 0};
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signature, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static void append_metadata(DBusMessageIter *variant) {
    static char trackid[64], title[64], url[64];
    const char *pointer;
    snprintf(trackid, sizeof trackid, "/org/mpris/MediaPlayer2/Track/%d", track);
    snprintf(title, sizeof title, "Track %d", track);
    snprintf(url, sizeof url, "file:///reference/track%d.ogg", track);
    int64_t length = 60000000;
    DBusMessageIter dict, entry, inner, artists;
    dbus_message_iter_open_container(variant, DBUS_TYPE_ARRAY, "{sv}", &dict);
    pointer = trackid;
    dict_basic(&dict, "mpris:trackid", DBUS_TYPE_OBJECT_PATH, &pointer);
    dict_basic(&dict, "mpris:length", DBUS_TYPE_INT64, &length);
    pointer = title;
    dict_basic(&dict, "xesam:title", DBUS_TYPE_STRING, &pointer);
    pointer = "Reference Album";
    dict_basic(&dict, "xesam:album", DBUS_TYPE_STRING, &pointer);
    pointer = url;
    dict_basic(&dict, "xesam:url", DBUS_TYPE_STRING, &pointer);
    const char *key = "xesam:artist", *artist = "Reference Artist";
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &inner);
    dbus_message_iter_open_container(&inner, DBUS_TYPE_ARRAY, "s", &artists);
    dbus_message_iter_append_basic(&artists, DBUS_TYPE_STRING, &artist);
    dbus_message_iter_close_container(&inner, &artists);
    dbus_message_iter_close_container(&entry, &inner);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(variant, &dict);
}

/* Appends the Player property `name` as a variant; returns 0 if there is no such property. */
static int append_player_property(DBusMessageIter *iter, const char *name) {
    DBusMessageIter variant;
    const char *string;
    double number;
    dbus_bool_t flag;
    int64_t time;
#define BASIC(sig, type, value)                                                  \
    do {                                                                         \
        dbus_message_iter_open_container(iter, DBUS_TYPE_VARIANT, sig, &variant); \
        dbus_message_iter_append_basic(&variant, type, value);                    \
        dbus_message_iter_close_container(iter, &variant);                        \
        return 1;                                                                \
    } while (0)
    if (!strcmp(name, "PlaybackStatus")) { string = playing ? "Playing" : "Paused"; BASIC("s", DBUS_TYPE_STRING, &string); }
    if (!strcmp(name, "LoopStatus")) { string = "Playlist"; BASIC("s", DBUS_TYPE_STRING, &string); }
    if (!strcmp(name, "Rate") || !strcmp(name, "Volume") || !strcmp(name, "MinimumRate")) { number = 1; BASIC("d", DBUS_TYPE_DOUBLE, &number); }
    if (!strcmp(name, "MaximumRate")) { number = 4; BASIC("d", DBUS_TYPE_DOUBLE, &number); }
    if (!strcmp(name, "Shuffle")) { flag = 0; BASIC("b", DBUS_TYPE_BOOLEAN, &flag); }
    if (!strcmp(name, "Position")) { time = position_us(); BASIC("x", DBUS_TYPE_INT64, &time); }
    if (!strcmp(name, "CanGoNext") || !strcmp(name, "CanGoPrevious") || !strcmp(name, "CanPlay") ||
        !strcmp(name, "CanPause") || !strcmp(name, "CanSeek") || !strcmp(name, "CanControl")) {
        flag = 1;
        BASIC("b", DBUS_TYPE_BOOLEAN, &flag);
    }
#undef BASIC
    if (!strcmp(name, "Metadata")) {
        dbus_message_iter_open_container(iter, DBUS_TYPE_VARIANT, "a{sv}", &variant);
        append_metadata(&variant);
        dbus_message_iter_close_container(iter, &variant);
        return 1;
    }
    return 0;
}

static const char *const player_properties[] = {
    "PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume", "Position", "MinimumRate",
    "MaximumRate", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl", NULL};

static void append_root_all(DBusMessageIter *dict) {
    dbus_bool_t no = 0;
    const char *identity = "Reference", *entry = "reference";
    dict_basic(dict, "CanQuit", DBUS_TYPE_BOOLEAN, &no);
    dict_basic(dict, "CanRaise", DBUS_TYPE_BOOLEAN, &no);
    dict_basic(dict, "HasTrackList", DBUS_TYPE_BOOLEAN, &no);
    dict_basic(dict, "Identity", DBUS_TYPE_STRING, &identity);
    dict_basic(dict, "DesktopEntry", DBUS_TYPE_STRING, &entry);
}

static void append_player_all(DBusMessageIter *dict) {
    for (const char *const *name = player_properties; *name; name++) {
        DBusMessageIter entry;
        dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, name);
        append_player_property(&entry, *name);
        dbus_message_iter_close_container(dict, &entry);
    }
}

/* PropertiesChanged on the Player with the given properties, sent at once. */
static void emit_changed(const char *const *names) {
    DBusMessage *signal = dbus_message_new_signal(PATH, PROPERTIES, "PropertiesChanged");
    DBusMessageIter iter, dict, entry, invalidated;
    const char *interface = PLAYER;
    dbus_message_iter_init_append(signal, &iter);
    dbus_message_iter_append_basic(&iter, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    for (; *names; names++) {
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, names);
        append_player_property(&entry, *names);
        dbus_message_iter_close_container(&dict, &entry);
    }
    dbus_message_iter_close_container(&iter, &dict);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "s", &invalidated);
    dbus_message_iter_close_container(&iter, &invalidated);
    dbus_connection_send(bus, signal, NULL);
    dbus_message_unref(signal);
}

static void set_playing(int value) {
    if (value == playing) return;
    position_base_us = position_us();
    anchor_us = now_us();
    playing = value;
    static const char *const names[] = {"PlaybackStatus", NULL};
    emit_changed(names);
}

static void change_track(int step) {
    track = (track + TRACKS + step) % TRACKS;
    position_base_us = 0;
    anchor_us = now_us();
    static const char *const names[] = {"Metadata", NULL};
    emit_changed(names);
}

static DBusMessage *error_reply(DBusMessage *call, const char *name, const char *text) {
    return dbus_message_new_error(call, name, text);
}

static DBusMessage *properties_call(DBusMessage *call, const char *member) {
    const char *interface = NULL, *name = NULL;
    DBusMessageIter iter, dict;
    if (!strcmp(member, "GetAll")) {
        if (!dbus_message_get_args(call, NULL, DBUS_TYPE_STRING, &interface, DBUS_TYPE_INVALID))
            return error_reply(call, DBUS_ERROR_INVALID_ARGS, "GetAll takes (s)");
        int root = !strcmp(interface, ROOT), player = !strcmp(interface, PLAYER);
        if (!root && !player) return error_reply(call, DBUS_ERROR_UNKNOWN_INTERFACE, interface);
        DBusMessage *reply = dbus_message_new_method_return(call);
        dbus_message_iter_init_append(reply, &iter);
        dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
        if (root) append_root_all(&dict); else append_player_all(&dict);
        dbus_message_iter_close_container(&iter, &dict);
        return reply;
    }
    if (!strcmp(member, "Get")) {
        if (!dbus_message_get_args(call, NULL, DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID))
            return error_reply(call, DBUS_ERROR_INVALID_ARGS, "Get takes (ss)");
        if (strcmp(interface, PLAYER)) return error_reply(call, DBUS_ERROR_UNKNOWN_PROPERTY, name);
        DBusMessage *reply = dbus_message_new_method_return(call);
        dbus_message_iter_init_append(reply, &iter);
        if (!append_player_property(&iter, name)) {
            dbus_message_unref(reply);
            return error_reply(call, DBUS_ERROR_UNKNOWN_PROPERTY, name);
        }
        return reply;
    }
    if (!strcmp(member, "Set")) return error_reply(call, DBUS_ERROR_PROPERTY_READ_ONLY, "read-only");
    return error_reply(call, DBUS_ERROR_UNKNOWN_METHOD, member);
}

static DBusMessage *player_call(DBusMessage *call, const char *member) {
    if (!strcmp(member, "PlayPause")) set_playing(!playing);
    else if (!strcmp(member, "Play")) set_playing(1);
    else if (!strcmp(member, "Pause") || !strcmp(member, "Stop")) set_playing(0);
    else if (!strcmp(member, "Next")) change_track(1);
    else if (!strcmp(member, "Previous")) change_track(-1);
    else return error_reply(call, DBUS_ERROR_UNKNOWN_METHOD, member);
    return dbus_message_new_method_return(call);
}

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *call, void *data) {
    (void)data;
    if (dbus_message_get_type(call) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *interface = dbus_message_get_interface(call), *member = dbus_message_get_member(call);
    DBusMessage *reply;
    if (interface && !strcmp(interface, PROPERTIES)) reply = properties_call(call, member);
    else if (interface && !strcmp(interface, PLAYER)) reply = player_call(call, member);
    else reply = error_reply(call, DBUS_ERROR_UNKNOWN_METHOD, member);
    if (!dbus_message_get_no_reply(call)) dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    bus = dbus_bus_get(DBUS_BUS_SESSION, &error);
    if (!bus) {
        fprintf(stderr, "mpris_reference: %s\n", error.message);
        return 69;
    }
    anchor_us = now_us();
    static const DBusObjectPathVTable vtable = {.message_function = handle};
    dbus_connection_register_object_path(bus, PATH, &vtable, NULL);
    int owned = dbus_bus_request_name(bus, "org.mpris.MediaPlayer2.reference", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (owned != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "mpris_reference: cannot own the name\n");
        return 69;
    }
    while (dbus_connection_read_write_dispatch(bus, -1)) {}
    return 0;
}
