/* The large-queue test (linnet only: mpv and the reference have no MPRIS TrackList). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The TrackList's Tracks: object paths copied into a NULL-free array; returns the count. */
static int read_tracks(DBusConnection *bus, const char *name, char ***out) {
    const char *interface = MPRIS_TRACKLIST, *property = "Tracks";
    DBusMessage *reply = call(bus, name, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING,
                              &property, DBUS_TYPE_INVALID);
    DBusMessageIter iter, variant, array;
    dbus_message_iter_init(reply, &iter);
    dbus_message_iter_recurse(&iter, &variant);
    dbus_message_iter_recurse(&variant, &array);
    int count = 0, capacity = 1024;
    char **tracks = malloc(sizeof(char *) * (size_t)capacity);
    while (dbus_message_iter_get_arg_type(&array) == DBUS_TYPE_OBJECT_PATH) {
        const char *path;
        dbus_message_iter_get_basic(&array, &path);
        if (count == capacity) tracks = realloc(tracks, sizeof(char *) * (size_t)(capacity *= 2));
        tracks[count++] = strdup(path);
        dbus_message_iter_next(&array);
    }
    dbus_message_unref(reply);
    *out = tracks;
    return count;
}

/* GetTracksMetadata of `count` ids; returns how many answers carry `key`. */
static int tracks_with(DBusConnection *bus, const char *name, char **ids, int count, const char *key) {
    DBusMessage *message = dbus_message_new_method_call(name, MPRIS_PATH, MPRIS_TRACKLIST, "GetTracksMetadata");
    dbus_message_append_args(message, DBUS_TYPE_ARRAY, DBUS_TYPE_OBJECT_PATH, &ids, count, DBUS_TYPE_INVALID);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, 10000, &error);
    dbus_message_unref(message);
    if (!reply) fail("GetTracksMetadata: %s", error.message);
    int found = 0;
    DBusMessageIter iter, array;
    dbus_message_iter_init(reply, &iter);
    dbus_message_iter_recurse(&iter, &array);
    while (dbus_message_iter_get_arg_type(&array) == DBUS_TYPE_ARRAY) {
        if (!key || dict_has_key(&array, key)) found++;
        dbus_message_iter_next(&array);
    }
    dbus_message_unref(reply);
    return found;
}

static int all_scanned(DBusConnection *bus, const char *name, char **ids, int count) {
    for (int first = 0; first < count; first += 500) {
        int chunk = count - first < 500 ? count - first : 500;
        if (tracks_with(bus, name, ids + first, chunk, "xesam:artist") != chunk) return 0;
    }
    return 1;
}

static void free_tracks(char **tracks, int count) {
    for (int i = 0; i < count; i++) free(tracks[i]);
    free(tracks);
}

/* A TrackAdded's new track id, waited for on `signals`. */
static char *added_track(DBusConnection *signals) {
    int64_t deadline = now_ns() + 5 * (int64_t)1000000000;
    while (now_ns() < deadline) {
        DBusMessage *message;
        dbus_connection_read_write(signals, 5);
        while ((message = dbus_connection_pop_message(signals))) {
            char *id = NULL;
            DBusMessageIter iter, dict, entry, variant;
            if (dbus_message_is_signal(message, MPRIS_TRACKLIST, "TrackAdded") && dbus_message_iter_init(message, &iter)) {
                dbus_message_iter_recurse(&iter, &dict);
                while (!id && dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
                    const char *key;
                    dbus_message_iter_recurse(&dict, &entry);
                    dbus_message_iter_get_basic(&entry, &key);
                    dbus_message_iter_next(&entry);
                    dbus_message_iter_recurse(&entry, &variant);
                    if (!strcmp(key, "mpris:trackid")) {
                        const char *path;
                        dbus_message_iter_get_basic(&variant, &path);
                        id = strdup(path);
                    }
                    dbus_message_iter_next(&dict);
                }
            }
            dbus_message_unref(message);
            if (id) return id;
        }
    }
    fail("AddTrack: no TrackAdded signal within 5 s");
}

static void report(const char *metric, double *samples, int count) {
    char key[96];
    sort_doubles(samples, count);
    snprintf(key, sizeof key, "%s_p50_us", metric);
    output(key, percentile(samples, count, 0.5));
    snprintf(key, sizeof key, "%s_p99_us", metric);
    output(key, percentile(samples, count, 0.99));
}

void run_queue_test(const char *name, char *const small_argv[], char *const large_argv[], const char *log_path,
                    int calls) {
    DBusConnection *bus = connect_bus();

    /* The same player with a few tracks, for the memory a queued track costs. */
    measure_launch(bus, name, small_argv, log_path, "queue_small_", 60);
    char **tracks;
    int small_count = read_tracks(bus, name, &tracks);
    free_tracks(tracks, small_count);
    sleep_ms(2000);
    double small_rss = process_rss_kib(player_pid);
    stop_player();

    int64_t start = now_ns();
    /* linnet scans the tags of the files it is given before it takes the name. */
    measure_launch(bus, name, large_argv, log_path, "queue_", 900);
    int count = read_tracks(bus, name, &tracks);
    if (count < 1000) fail("the large queue has only %d tracks", count);
    while (tracks_with(bus, name, tracks + count - 1, 1, "xesam:artist") != 1 || !all_scanned(bus, name, tracks, count)) {
        if (!player_alive()) fail("linnet exited while scanning");
        if (now_ns() - start > 600 * (int64_t)1000000000) fail("tags not all scanned within 600 s");
        sleep_ms(50);
    }
    double seconds = (double)(now_ns() - start) / 1e9;
    output("queue_tracks", count);
    output("queue_scanned_tracks_per_s", count / seconds);
    sleep_ms(2000);
    double rss = process_rss_kib(player_pid);
    output("queue_rss_mib", rss / 1024);
    output("queue_bytes_per_track", (rss - small_rss) * 1024 / (count - small_count));

    double *samples = malloc(sizeof(double) * (size_t)calls);
    for (int i = 0; i < calls; i++) {
        int first = (int)random_between(0, count - 21);
        int64_t began = now_ns();
        if (tracks_with(bus, name, tracks + first, 20, NULL) != 20) fail("GetTracksMetadata lost tracks");
        samples[i] = (double)(now_ns() - began) / 1e3;
    }
    report("queue_get_tracks_metadata_20", samples, calls);

    DBusConnection *signals = connect_bus();
    add_match(signals, "type='signal',interface='" MPRIS_TRACKLIST "',member='TrackAdded'");
    char uri[4096];
    if (!get_player_string(bus, name, "Metadata", uri, sizeof uri)) fail("no Metadata");
    const char *url = strstr(uri, "file://");
    if (!url) fail("the current track has no file:// xesam:url (%s)", uri);
    snprintf(uri, sizeof uri, "%s", url);
    *strchr(uri, '|') = 0;
    const char *file = uri;
    double *removals = malloc(sizeof(double) * (size_t)calls);
    dbus_bool_t no = 0;
    for (int i = 0; i < calls; i++) {
        const char *after = tracks[count / 2];
        int64_t began = now_ns();
        dbus_message_unref(call(bus, name, MPRIS_TRACKLIST, "AddTrack", DBUS_TYPE_STRING, &file,
                                DBUS_TYPE_OBJECT_PATH, &after, DBUS_TYPE_BOOLEAN, &no, DBUS_TYPE_INVALID));
        samples[i] = (double)(now_ns() - began) / 1e3;
        char *id = added_track(signals);
        began = now_ns();
        dbus_message_unref(call(bus, name, MPRIS_TRACKLIST, "RemoveTrack", DBUS_TYPE_OBJECT_PATH, &id,
                                DBUS_TYPE_INVALID));
        removals[i] = (double)(now_ns() - began) / 1e3;
        free(id);
    }
    report("queue_add_track", samples, calls);
    report("queue_remove_track", removals, calls);
    free(samples);
    free(removals);
    free_tracks(tracks, count);
    stop_player();
    dbus_connection_close(signals);
    dbus_connection_unref(signals);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
}
