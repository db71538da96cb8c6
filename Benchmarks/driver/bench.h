/*
 * mpris-bench: the benchmark driver (client side) for Linnet, mpv + mpv-mpris and the C reference.
 *
 * Written in C on libdbus so that the client adds as little as possible to what is measured:
 * every call is a blocking libdbus call read on the calling thread, with no event-loop hop.
 * Results go to stdout as "player metric value" lines; `mpris-bench report` turns them into a table.
 */
#ifndef MPRIS_BENCH_H
#define MPRIS_BENCH_H

#include <dbus/dbus.h>
#include <stdint.h>
#include <sys/types.h>

#define MPRIS_PATH "/org/mpris/MediaPlayer2"
#define MPRIS_PLAYER "org.mpris.MediaPlayer2.Player"
#define MPRIS_TRACKLIST "org.mpris.MediaPlayer2.TrackList"
#define DBUS_PROPERTIES "org.freedesktop.DBus.Properties"

/* Time and randomness. */
int64_t now_ns(void);
void sleep_ms(double ms);
double random_between(double low, double high);
void sort_doubles(double *values, int count);
double percentile(const double *sorted, int count, double fraction);

/* Failing loudly: prints "mpris-bench: <what>", stops the player if one runs, exits 1. */
_Noreturn void fail(const char *format, ...);
void output(const char *metric, double value);   /* "<player> <metric> <value>" on stdout */
extern const char *player_label;

/* Connections and calls. */
DBusConnection *connect_bus(void);
DBusMessage *call(DBusConnection *bus, const char *destination, const char *interface, const char *member,
                  int first_type, ...);
DBusMessage *call_quiet(DBusConnection *bus, const char *destination, const char *interface,
                        const char *member, int first_type, ...);  /* NULL on an error reply */
void add_match(DBusConnection *bus, const char *rule);
char *name_owner(DBusConnection *bus, const char *name);
/* The string property `property` of the Player, copied into `out`; 0 on failure. */
int get_player_string(DBusConnection *bus, const char *destination, const char *property, char *out, size_t size);
/* A summary of the variant at `iter` (an a{sv} metadata) that changes whenever the track does. */
void metadata_key(DBusMessageIter *variant, char *out, size_t size);
int dict_has_key(DBusMessageIter *dict, const char *key);

/* The player process. */
pid_t launch(char *const argv[], const char *log_path);
void stop_player(void);
int player_alive(void);
double process_cpu_seconds(pid_t pid);
double process_rss_kib(pid_t pid);
extern pid_t player_pid;

/* Launch: waits until `name` is owned and a GetAll succeeds; outputs both times. */
void measure_launch(DBusConnection *bus, const char *name, char *const argv[], const char *log_path,
                    const char *prefix, int timeout_s);
void wait_for_status(DBusConnection *bus, const char *name, const char *status, double timeout_s);

/* The measurement phases. */
struct settings {
    int calls, reps, clients;
    double throughput_s, cpu_s;
};
void run_player_round(const char *name, char *const argv[], const char *log_path, const struct settings *s);
void run_queue_test(const char *name, char *const small_argv[], char *const large_argv[], const char *log_path,
                    int calls);
int run_report(int argc, char **argv);

#endif
