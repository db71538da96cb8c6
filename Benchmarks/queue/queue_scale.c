/*
 * queue-scale: the large-queue figures of issue 18 against one linnet binary.
 *
 *   queue-scale --label L --tracks N -- linnet command...
 *
 * The command must start linnet with a playlist of N entries (run.sh writes one) and a private
 * bus in DBUS_SESSION_BUS_ADDRESS. Prints "L metric value" lines: launch, RSS with the queue,
 * GetTracksMetadata(20) (beside a C floor answering the same rows: metadata_floor.c), GetAll / Get(Position), AddTrack / RemoveTrack after the middle entry,
 * and RSS growth per queue edit and per track load after a warm-up. Reuses the driver's support
 * and bus helpers (Benchmarks/driver).
 */
#include "../driver/bench.h"
#include "metadata_floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "org.mpris.MediaPlayer2.linnet"

static int read_tracks(DBusConnection *bus, char ***out) {
    const char *interface = MPRIS_TRACKLIST, *property = "Tracks";
    DBusMessage *reply = call(bus, NAME, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING,
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

static int metadata_count(DBusConnection *bus, const char *destination, char **ids, int count) {
    DBusMessage *message = dbus_message_new_method_call(destination, MPRIS_PATH, MPRIS_TRACKLIST, "GetTracksMetadata");
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
        found++;
        dbus_message_iter_next(&array);
    }
    dbus_message_unref(reply);
    return found;
}

/* The id in the next TrackAdded on `signals`. */
static char *added_track(DBusConnection *signals) {
    int64_t deadline = now_ns() + 10 * (int64_t)1000000000;
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
    fail("AddTrack: no TrackAdded signal within 10 s");
}

static void report(const char *metric, double *samples, int count) {
    char key[96];
    sort_doubles(samples, count);
    snprintf(key, sizeof key, "%s_p50_us", metric);
    output(key, percentile(samples, count, 0.5));
    snprintf(key, sizeof key, "%s_p99_us", metric);
    output(key, percentile(samples, count, 0.99));
}

/* One AddTrack after `after` and its RemoveTrack; the durations go to *add_us and *remove_us. */
static void edit_pair(DBusConnection *bus, DBusConnection *signals, const char *file, const char *after,
                      double *add_us, double *remove_us) {
    dbus_bool_t no = 0;
    int64_t began = now_ns();
    dbus_message_unref(call(bus, NAME, MPRIS_TRACKLIST, "AddTrack", DBUS_TYPE_STRING, &file, DBUS_TYPE_OBJECT_PATH,
                            &after, DBUS_TYPE_BOOLEAN, &no, DBUS_TYPE_INVALID));
    if (add_us) *add_us = (double)(now_ns() - began) / 1e3;
    char *id = added_track(signals);
    began = now_ns();
    dbus_message_unref(call(bus, NAME, MPRIS_TRACKLIST, "RemoveTrack", DBUS_TYPE_OBJECT_PATH, &id, DBUS_TYPE_INVALID));
    if (remove_us) *remove_us = (double)(now_ns() - began) / 1e3;
    free(id);
}

/* A Get(PlaybackStatus) round trip: everything sent before it has been handled. */
static void round_trip(DBusConnection *bus) {
    char status[64];
    if (!get_player_string(bus, NAME, "PlaybackStatus", status, sizeof status)) fail("no PlaybackStatus");
}

/* Sets the Player's Shuffle property (a variant, which the driver's call() cannot append). */
static void set_shuffle(DBusConnection *bus, dbus_bool_t on) {
    DBusMessage *message = dbus_message_new_method_call(NAME, MPRIS_PATH, DBUS_PROPERTIES, "Set");
    const char *interface = MPRIS_PLAYER, *property = "Shuffle";
    DBusMessageIter iter, variant;
    dbus_message_iter_init_append(message, &iter);
    dbus_message_iter_append_basic(&iter, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_append_basic(&iter, DBUS_TYPE_STRING, &property);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_VARIANT, "b", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &on);
    dbus_message_iter_close_container(&iter, &variant);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, 10000, &error);
    dbus_message_unref(message);
    if (!reply) fail("Set Shuffle: %s", error.message);
    dbus_message_unref(reply);
}

static double settled_rss(DBusConnection *bus) {
    round_trip(bus);
    sleep_ms(1500);
    round_trip(bus);
    return process_rss_kib(player_pid);
}

int main(int argc, char **argv) {
    int expected = 0, calls = 300, edits = 2000, loads = 400;
    char *file = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--label")) player_label = argv[++i];
        else if (!strcmp(argv[i], "--tracks")) expected = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--calls")) calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--edits")) edits = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--loads")) loads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--file")) file = argv[++i];
    }
    if (i >= argc - 1 || !file) fail("usage: queue-scale --label L --tracks N --file URI [--calls N] -- command...");
    char *const *command = argv + i + 1;
    DBusConnection *bus = connect_bus();
    measure_launch(bus, NAME, command, "/dev/null", "scale_", 600);
    char **tracks;
    int count = read_tracks(bus, &tracks);
    /* linnet owns its name before it reads the playlist, and publishes the queue once resolved. */
    for (int waited = 0; count < expected && waited < 600 * 50; waited++) {
        for (int n = 0; n < count; n++) free(tracks[n]);
        free(tracks);
        sleep_ms(20);
        count = read_tracks(bus, &tracks);
    }
    if (count < expected) fail("the queue has %d tracks, expected %d", count, expected);
    output("scale_tracks", count);
    output("scale_rss_mib", settled_rss(bus) / 1024);

    double *samples = malloc(sizeof(double) * (size_t)(calls > edits ? calls : edits));
    double *others = malloc(sizeof(double) * (size_t)(calls > edits ? calls : edits));
    /* Interleaved with the C floor, which answers every page with linnet's rows for one page. */
    pid_t floor = metadata_floor_start(bus, NAME, tracks + count / 2, 20);
    for (int n = 0; n < calls; n++) {
        int first = (int)random_between(0, count - 21);
        int64_t began = now_ns();
        if (metadata_count(bus, NAME, tracks + first, 20) != 20) fail("GetTracksMetadata lost tracks");
        samples[n] = (double)(now_ns() - began) / 1e3;
        began = now_ns();
        if (metadata_count(bus, FLOOR_NAME, tracks + first, 20) != 20) fail("the C floor lost tracks");
        others[n] = (double)(now_ns() - began) / 1e3;
    }
    metadata_floor_stop(floor);
    report("scale_get_tracks_metadata_20", samples, calls);
    report("scale_get_tracks_metadata_20_c_floor", others, calls);

    const char *player = MPRIS_PLAYER, *position = "Position";
    for (int n = 0; n < calls; n++) {
        int64_t began = now_ns();
        dbus_message_unref(call(bus, NAME, DBUS_PROPERTIES, "GetAll", DBUS_TYPE_STRING, &player, DBUS_TYPE_INVALID));
        samples[n] = (double)(now_ns() - began) / 1e3;
        began = now_ns();
        dbus_message_unref(call(bus, NAME, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &player, DBUS_TYPE_STRING,
                                &position, DBUS_TYPE_INVALID));
        others[n] = (double)(now_ns() - began) / 1e3;
    }
    report("scale_get_all", samples, calls);
    report("scale_get_position", others, calls);

    DBusConnection *signals = connect_bus();
    add_match(signals, "type='signal',interface='" MPRIS_TRACKLIST "',member='TrackAdded'");
    const char *middle = tracks[count / 2];
    for (int n = 0; n < calls; n++) edit_pair(bus, signals, file, middle, &samples[n], &others[n]);
    report("scale_add_track", samples, calls);
    report("scale_remove_track", others, calls);

    /* The same edits while shuffled: the shuffle plan is edited too. */
    set_shuffle(bus, 1);
    for (int n = 0; n < calls; n++) edit_pair(bus, signals, file, middle, &samples[n], &others[n]);
    set_shuffle(bus, 0);
    report("scale_shuffled_add_track", samples, calls);
    report("scale_shuffled_remove_track", others, calls);

    /* Growth per queue edit (an AddTrack with its RemoveTrack counts as two), after the pairs above. */
    double before = settled_rss(bus);
    for (int n = 0; n < edits / 2; n++) edit_pair(bus, signals, file, middle, NULL, NULL);
    output("scale_growth_kib_per_edit", (settled_rss(bus) - before) / (edits / 2 * 2));

    /* Growth per track load: GoTo alternately the first two entries (run.sh makes them real files). */
    for (int round = 0; round < 2; round++) {
        if (round == 1) before = settled_rss(bus);
        for (int n = 0; n < loads; n++) {
            const char *target = tracks[n % 2];
            dbus_message_unref(call(bus, NAME, MPRIS_TRACKLIST, "GoTo", DBUS_TYPE_OBJECT_PATH, &target, DBUS_TYPE_INVALID));
            round_trip(bus);
            sleep_ms(20);
        }
    }
    output("scale_growth_kib_per_load", (settled_rss(bus) - before) / loads);

    free(samples);
    free(others);
    stop_player();
    dbus_connection_close(signals);
    dbus_connection_unref(signals);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}
