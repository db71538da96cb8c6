/*
 * load-growth: memory growth per track load of one linnet binary.
 *
 *   load-growth --label L --loads N [--warmup W] [--samples S] [--probe DIR] -- linnet command...
 *
 * The command must start linnet playing a few real files (at least 3, each longer than 25 s)
 * with --loop playlist on the bus in DBUS_SESSION_BUS_ADDRESS. One cycle is a load and a seek:
 * GoTo the entry two after the current one (even cycles) or Next (odd cycles), wait until the new track plays (its
 * position is between 20 ms and 10 s, which the previous track's, seeked to 20 s, never is),
 * then Seek 20 s and wait until the position is past 15 s. After W warm-up cycles, RSS (and, with
 * --probe, the heap in use that heap-probe.so reports from inside linnet) is sampled S + 1 times
 * evenly over the N cycles, each after the player has been idle for a moment. Prints
 * "L metric value" lines: the growth per load in KiB as the least-squares slope over the samples
 * (a slope, not last minus first, so that one sample caught mid-collection does not decide the
 * figure), the first and last values, and the loads per second.
 */
#include "../driver/bench.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "org.mpris.MediaPlayer2.linnet"
#define SEEK_US 20000000LL

struct sample {
    double loads, rss, heap, mmap;
};

static const char *probe_folder;

/* Player.Position in µs (an int64 in a variant). */
static int64_t position_us(DBusConnection *bus) {
    const char *interface = MPRIS_PLAYER, *property = "Position";
    DBusMessage *reply = call(bus, NAME, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING,
                              &property, DBUS_TYPE_INVALID);
    DBusMessageIter iter, variant;
    dbus_message_iter_init(reply, &iter);
    dbus_message_iter_recurse(&iter, &variant);
    dbus_int64_t value = -1;
    if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_INT64) dbus_message_iter_get_basic(&variant, &value);
    dbus_message_unref(reply);
    return value;
}

/* Polls Position (a benchmark client may poll) until it lies in [low, high]; fails after 20 s. */
static void wait_position(DBusConnection *bus, int64_t low, int64_t high, const char *what) {
    int64_t deadline = now_ns() + 20 * (int64_t)1000000000;
    for (;;) {
        int64_t position = position_us(bus);
        if (position >= low && position <= high) return;
        if (now_ns() > deadline) fail("%s: Position stayed %lld µs", what, (long long)position);
        if (!player_alive()) fail("linnet exited during %s", what);
        sleep_ms(5);
    }
}

static int read_tracks(DBusConnection *bus, char **tracks, int capacity) {
    const char *interface = MPRIS_TRACKLIST, *property = "Tracks";
    DBusMessage *reply = call(bus, NAME, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING,
                              &property, DBUS_TYPE_INVALID);
    DBusMessageIter iter, variant, array;
    dbus_message_iter_init(reply, &iter);
    dbus_message_iter_recurse(&iter, &variant);
    dbus_message_iter_recurse(&variant, &array);
    int count = 0;
    while (count < capacity && dbus_message_iter_get_arg_type(&array) == DBUS_TYPE_OBJECT_PATH) {
        const char *path;
        dbus_message_iter_get_basic(&array, &path);
        tracks[count++] = strdup(path);
        dbus_message_iter_next(&array);
    }
    dbus_message_unref(reply);
    return count;
}

/* One line from heap-probe.so inside linnet. */
static void read_probe(struct sample *sample) {
    char path[4096], line[512] = "";
    snprintf(path, sizeof path, "%s/request", probe_folder);
    /* Non-blocking, so a linnet without the probe is a failure within 10 s, not a hang: opening a
     * FIFO for writing fails with ENXIO while nothing has it open for reading. */
    int request = -1;
    for (int attempt = 0; attempt < 1000 && request < 0; attempt++) {
        request = open(path, O_WRONLY | O_NONBLOCK);
        if (request < 0) sleep_ms(10);
    }
    if (request < 0 || write(request, "\n", 1) != 1) fail("cannot write %s (is heap-probe.so preloaded?)", path);
    close(request);
    snprintf(path, sizeof path, "%s/reply", probe_folder);
    FILE *reply = fopen(path, "r");
    if (!reply || !fgets(line, sizeof line, reply)) fail("no answer on %s", path);
    fclose(reply);
    double rss;
    if (sscanf(line, "rss_kib %lf heap_kib %lf mmap_kib %lf", &rss, &sample->heap, &sample->mmap) != 3)
        fail("unexpected probe answer: %s", line);
}

static struct sample take_sample(DBusConnection *bus, int loads) {
    struct sample sample = {loads, 0, -1, -1};
    sleep_ms(1000);  /* lets the last load's streaming threads finish their work */
    position_us(bus);
    if (probe_folder) read_probe(&sample);
    sample.rss = process_rss_kib(player_pid);
    return sample;
}

static double slope(const struct sample *samples, int count, size_t field) {
    double mean_x = 0, mean_y = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < count; i++) {
        mean_x += samples[i].loads / count;
        mean_y += *(const double *)((const char *)&samples[i] + field) / count;
    }
    for (int i = 0; i < count; i++) {
        double dx = samples[i].loads - mean_x, y = *(const double *)((const char *)&samples[i] + field);
        sxx += dx * dx;
        sxy += dx * (y - mean_y);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

int main(int argc, char **argv) {
    int loads = 2000, warmup = 200, sample_count = 10;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--label")) player_label = argv[++i];
        else if (!strcmp(argv[i], "--loads")) loads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup")) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--samples")) sample_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--probe")) probe_folder = argv[++i];
    }
    if (i >= argc - 1 || loads < 1 || sample_count < 1)
        fail("usage: load-growth --label L --loads N [--warmup W] [--samples S] [--probe DIR] -- command...");
    char *const *command = argv + i + 1;
    DBusConnection *bus = connect_bus();
    measure_launch(bus, NAME, command, "/dev/null", "growth_", 120);
    wait_for_status(bus, NAME, "Playing", 30);  /* linnet owns its name before it queues the files */
    char *tracks[16];
    int count = read_tracks(bus, tracks, 16);
    if (count < 3) fail("linnet queued %d tracks; the load cycle needs at least 3", count);

    struct sample *samples = calloc((size_t)sample_count + 1, sizeof *samples);
    int taken = 0, total = warmup + loads;
    int64_t began = 0;
    int current = 0;  /* linnet starts on the first entry */
    for (int cycle = 0; cycle <= total; cycle++) {
        int counted = cycle - warmup;
        if (counted >= 0 && counted * sample_count / loads >= taken && taken <= sample_count) {
            samples[taken++] = take_sample(bus, counted);
            if (taken == 1) began = now_ns();
        }
        if (cycle == total) break;
        if (cycle % 2 == 0) {
            current = (current + 2) % count;
            const char *target = tracks[current];
            dbus_message_unref(call(bus, NAME, MPRIS_TRACKLIST, "GoTo", DBUS_TYPE_OBJECT_PATH, &target, DBUS_TYPE_INVALID));
        } else {
            dbus_message_unref(call(bus, NAME, MPRIS_PLAYER, "Next", DBUS_TYPE_INVALID));
            current = (current + 1) % count;
        }
        wait_position(bus, 20000, 10000000, "waiting for the loaded track to play");
        dbus_int64_t offset = SEEK_US;
        dbus_message_unref(call(bus, NAME, MPRIS_PLAYER, "Seek", DBUS_TYPE_INT64, &offset, DBUS_TYPE_INVALID));
        /* A seek lands on the nearest earlier sample it can (19.98 s was seen): anything past 15 s
         * is the seek, as the load before it left the position under 10 s. */
        wait_position(bus, SEEK_US - 5000000, INT64_MAX, "waiting for the seek");
    }
    double seconds = (double)(now_ns() - began) / 1e9 - (double)sample_count;  /* minus the idle seconds */
    output("growth_loads", loads);
    output("growth_loads_per_s", loads / seconds);
    output("growth_rss_first_kib", samples[0].rss);
    output("growth_rss_last_kib", samples[taken - 1].rss);
    output("growth_rss_kib_per_load", slope(samples, taken, offsetof(struct sample, rss)));
    if (probe_folder) {
        output("growth_heap_first_kib", samples[0].heap);
        output("growth_heap_last_kib", samples[taken - 1].heap);
        output("growth_heap_kib_per_load", slope(samples, taken, offsetof(struct sample, heap)));
        output("growth_mmap_kib_per_load", slope(samples, taken, offsetof(struct sample, mmap)));
    }
    for (int n = 0; n < taken; n++)
        fprintf(stderr, "load-growth [%s]: after %5.0f loads: RSS %8.0f KiB, heap in use %8.0f KiB, mmapped %6.0f KiB\n",
                player_label, samples[n].loads, samples[n].rss, samples[n].heap, samples[n].mmap);
    stop_player();
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}
