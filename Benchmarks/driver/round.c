/* One benchmark round against one player: launch, latency, signals, throughput, CPU and memory. */
#include "bench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* p50/p99 (µs) of `calls` sequential blocking calls of Properties.Get or GetAll. */
static void measure_latency(DBusConnection *bus, const char *name, const char *property, int calls,
                            const char *metric) {
    const char *interface = MPRIS_PLAYER;
    double *samples = malloc(sizeof(double) * (size_t)calls);
    for (int i = 0; i < calls; i++) {
        int64_t start = now_ns();
        DBusMessage *reply = property
            ? call(bus, name, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING, &property,
                   DBUS_TYPE_INVALID)
            : call(bus, name, DBUS_PROPERTIES, "GetAll", DBUS_TYPE_STRING, &interface, DBUS_TYPE_INVALID);
        samples[i] = (double)(now_ns() - start) / 1e3;
        dbus_message_unref(reply);
    }
    sort_doubles(samples, calls);
    char key[96];
    snprintf(key, sizeof key, "%s_p50_us", metric);
    output(key, percentile(samples, calls, 0.5));
    snprintf(key, sizeof key, "%s_p99_us", metric);
    output(key, percentile(samples, calls, 0.99));
    free(samples);
}

/* Drops whatever is queued on `bus`. */
static void drain(DBusConnection *bus) {
    DBusMessage *message;
    dbus_connection_read_write(bus, 0);
    while ((message = dbus_connection_pop_message(bus))) dbus_message_unref(message);
}

/* Waits for a PropertiesChanged of the Player whose changed dict has `property`; for PlaybackStatus
 * it must equal `expected`, for Metadata its key must differ from `expected`. Returns its arrival
 * time, or 0 after `timeout_ms`. */
static int64_t wait_for_change(DBusConnection *bus, const char *property, const char *expected, int timeout_ms) {
    int64_t deadline = now_ns() + (int64_t)timeout_ms * 1000000;
    while (now_ns() < deadline) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            int64_t arrived = now_ns();
            int match = 0;
            DBusMessageIter iter, dict, entry, variant;
            const char *interface;
            if (dbus_message_is_signal(message, DBUS_PROPERTIES, "PropertiesChanged") &&
                dbus_message_iter_init(message, &iter) && dbus_message_iter_get_arg_type(&iter) == DBUS_TYPE_STRING) {
                dbus_message_iter_get_basic(&iter, &interface);
                if (!strcmp(interface, MPRIS_PLAYER) && dbus_message_iter_next(&iter)) {
                    dbus_message_iter_recurse(&iter, &dict);
                    while (!match && dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
                        const char *key;
                        dbus_message_iter_recurse(&dict, &entry);
                        dbus_message_iter_get_basic(&entry, &key);
                        dbus_message_iter_next(&entry);
                        dbus_message_iter_recurse(&entry, &variant);
                        if (!strcmp(key, property)) {
                            if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_STRING) {
                                const char *value;
                                dbus_message_iter_get_basic(&variant, &value);
                                match = !strcmp(value, expected);
                            } else if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_ARRAY) {
                                char summary[1024];
                                metadata_key(&variant, summary, sizeof summary);
                                match = strcmp(summary, expected) != 0;
                            }
                        }
                        dbus_message_iter_next(&dict);
                    }
                }
            }
            dbus_message_unref(message);
            if (match) return arrived;
        }
        int left = (int)((deadline - now_ns()) / 1000000);
        if (left <= 0) break;
        dbus_connection_read_write(bus, left < 5 ? 1 : 5);
        if (!player_alive()) fail("the player exited during a signal test");
    }
    return 0;
}

/* Sends `member` to the Player and times the PropertiesChanged that shows its effect. */
static void measure_signal(DBusConnection *bus, const char *name, const char *member, const char *property,
                           int reps, double gap_low_ms, double gap_high_ms, const char *metric) {
    double *samples = malloc(sizeof(double) * (size_t)reps);
    int timeouts = 0;
    for (int i = 0; i < reps; i++) {
        char expected[1024];
        sleep_ms(random_between(gap_low_ms, gap_high_ms));
        if (!get_player_string(bus, name, property, expected, sizeof expected)) fail("cannot read %s", property);
        if (!strcmp(property, "PlaybackStatus"))
            snprintf(expected, sizeof expected, "%s", strcmp(expected, "Playing") ? "Playing" : "Paused");
        drain(bus);
        DBusMessage *message = dbus_message_new_method_call(name, MPRIS_PATH, MPRIS_PLAYER, member);
        int64_t start = now_ns();
        dbus_connection_send(bus, message, NULL);
        dbus_connection_flush(bus);
        dbus_message_unref(message);
        int64_t arrived = wait_for_change(bus, property, expected, 3000);
        if (!arrived) {
            timeouts++;
            samples[i] = 3000;
        } else {
            samples[i] = (double)(arrived - start) / 1e6;
        }
    }
    if (timeouts * 2 > reps) fail("%s: no PropertiesChanged(%s) within 3 s in %d of %d tries", member, property,
                                  timeouts, reps);
    sort_doubles(samples, reps);
    char key[96];
    snprintf(key, sizeof key, "%s_median_ms", metric);
    output(key, percentile(samples, reps, 0.5));
    snprintf(key, sizeof key, "%s_p90_ms", metric);
    output(key, percentile(samples, reps, 0.9));
    snprintf(key, sizeof key, "%s_timeouts", metric);
    output(key, timeouts);
    free(samples);
}

struct load_client {
    const char *name;
    int64_t deadline;
    long calls;
    pthread_barrier_t *start;
};

static void *load_client_run(void *argument) {
    struct load_client *client = argument;
    DBusConnection *bus = connect_bus();
    const char *interface = MPRIS_PLAYER;
    pthread_barrier_wait(client->start);
    while (now_ns() < client->deadline) {
        DBusMessage *reply = call(bus, client->name, DBUS_PROPERTIES, "GetAll", DBUS_TYPE_STRING, &interface,
                                  DBUS_TYPE_INVALID);
        dbus_message_unref(reply);
        client->calls++;
    }
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return NULL;
}

/* `clients` threads, each on its own connection, calling GetAll back to back for `seconds`;
 * outputs calls/s and the service's CPU time per call. */
static void measure_throughput(const char *name, int clients, double seconds) {
    pthread_t threads[64];
    struct load_client load[64];
    pthread_barrier_t start;
    if (clients > 64) clients = 64;
    pthread_barrier_init(&start, NULL, (unsigned)clients + 1);
    for (int i = 0; i < clients; i++) {
        load[i] = (struct load_client){.name = name, .start = &start};
        pthread_create(&threads[i], NULL, load_client_run, &load[i]);
    }
    int64_t began = now_ns();
    int64_t deadline = began + 500000000 + (int64_t)(seconds * 1e9);
    for (int i = 0; i < clients; i++) load[i].deadline = deadline;
    double cpu_before = process_cpu_seconds(player_pid);
    pthread_barrier_wait(&start);
    began = now_ns();
    long total = 0;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        total += load[i].calls;
    }
    double elapsed = (double)(now_ns() - began) / 1e9;
    double cpu = process_cpu_seconds(player_pid) - cpu_before;
    pthread_barrier_destroy(&start);
    output("throughput_8_clients_per_s", (double)total / elapsed);
    output("cpu_per_call_us", cpu * 1e6 / (double)total);
}

/* CPU seconds the player used over `seconds` in its current state. */
static double cpu_over(double seconds) {
    sleep_ms(1000);  /* let the state change settle */
    double before = process_cpu_seconds(player_pid);
    sleep_ms(seconds * 1000);
    return process_cpu_seconds(player_pid) - before;
}

void run_player_round(const char *name, char *const argv[], const char *log_path, const struct settings *s) {
    DBusConnection *bus = connect_bus();
    measure_launch(bus, name, argv, log_path, "", 60);
    wait_for_status(bus, name, "Playing", 20);

    char cpu_key[64];
    snprintf(cpu_key, sizeof cpu_key, "cpu_playing_%.0fs_ms", s->cpu_s);
    output(cpu_key, cpu_over(s->cpu_s) * 1e3);
    output("rss_playing_mib", process_rss_kib(player_pid) / 1024);

    measure_latency(bus, name, NULL, s->calls, "getall");
    measure_latency(bus, name, "Position", s->calls, "get_position");

    DBusConnection *signals = connect_bus();
    char *owner = name_owner(bus, name), rule[512];
    snprintf(rule, sizeof rule,
             "type='signal',sender='%s',path='" MPRIS_PATH "',interface='" DBUS_PROPERTIES "',member='PropertiesChanged'",
             owner);
    add_match(signals, rule);
    free(owner);
    int reps = s->reps + (s->reps & 1);  /* even, so playback is back to Playing afterwards */
    measure_signal(signals, name, "PlayPause", "PlaybackStatus", reps, 20, 220, "playpause_signal");
    wait_for_status(bus, name, "Playing", 5);
    measure_signal(signals, name, "Next", "Metadata", s->reps, 150, 650, "next_metadata");

    DBusMessage *paused = call(bus, name, MPRIS_PLAYER, "Pause", DBUS_TYPE_INVALID);
    dbus_message_unref(paused);
    wait_for_status(bus, name, "Paused", 5);
    snprintf(cpu_key, sizeof cpu_key, "cpu_paused_%.0fs_ms", s->cpu_s);
    output(cpu_key, cpu_over(s->cpu_s) * 1e3);
    measure_throughput(name, s->clients, s->throughput_s);

    stop_player();
    dbus_connection_close(signals);
    dbus_connection_unref(signals);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
}
