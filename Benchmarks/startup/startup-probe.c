/* startup-probe: how soon a player owns its bus name, and how much memory it holds while playing.
 *
 *   startup-probe launch NAME -- COMMAND...   exec → NameOwnerChanged(NAME): prints "launch_ms X" and
 *        "launch_cpu_ms X", the CPU time all the player's threads had run by then (from
 *        /proc/PID/task/TID/schedstat), which a loaded machine disturbs far less than the wall time
 *   startup-probe rss NAME SECONDS -- COMMAND...
 *        starts COMMAND, waits for NAME, lets it play SECONDS, prints "rss_kib X" (VmRSS) and the
 *        biggest mappings ("map_kib X PATH") from /proc/PID/smaps, then stops it with SIGTERM.
 *        With STARTUP_PROBE_SMAPS=FILE set, a copy of that smaps is written to FILE first.
 *
 * The clock starts right before fork; the player's output goes to /dev/null. Needs
 * DBUS_SESSION_BUS_ADDRESS (a private bus). Exit status 1 when the player dies or never appears. */
#include <dbus/dbus.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

static pid_t child;
static double cpu_at_name_ms;

/* The CPU time the child's threads have run so far, in milliseconds (0 when unreadable). */
static double child_cpu_ms(void) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)child);
    DIR *tasks = opendir(path);
    if (!tasks) return 0;
    double total = 0;
    struct dirent *task;
    while ((task = readdir(tasks))) {
        if (task->d_name[0] == '.') continue;
        char file[320];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", (int)child, task->d_name);
        FILE *stat = fopen(file, "r");
        unsigned long long runtime_ns;
        if (stat && fscanf(stat, "%llu", &runtime_ns) == 1) total += runtime_ns / 1e6;
        if (stat) fclose(stat);
    }
    closedir(tasks);
    return total;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void fail(const char *message) {
    fprintf(stderr, "startup-probe: %s\n", message);
    if (child > 0) kill(child, SIGKILL);
    exit(1);
}

static void start(char *const argv[]) {
    child = fork();
    if (child < 0) fail("fork failed");
    if (child == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        if (!getenv("STARTUP_PROBE_STDERR")) dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
}

/* Starts argv and returns the milliseconds from fork to the NameOwnerChanged giving NAME an owner. */
static double launch(DBusConnection *bus, const char *name, char *const argv[]) {
    char rule[512];
    snprintf(rule, sizeof rule, "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'", name);
    dbus_bus_add_match(bus, rule, NULL);
    dbus_connection_flush(bus);
    double begun = now_ms();
    start(argv);
    for (;;) {
        int status;
        if (waitpid(child, &status, WNOHANG) == child) { child = 0; fail("the player exited before owning its name"); }
        if (now_ms() - begun > 60000) fail("the player did not own its name within 60 s");
        dbus_connection_read_write(bus, 100);
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            const char *changed, *old_owner, *new_owner;
            int owned = dbus_message_is_signal(message, DBUS_INTERFACE_DBUS, "NameOwnerChanged") &&
                        dbus_message_get_args(message, NULL, DBUS_TYPE_STRING, &changed, DBUS_TYPE_STRING, &old_owner,
                                              DBUS_TYPE_STRING, &new_owner, DBUS_TYPE_INVALID) &&
                        !strcmp(changed, name) && new_owner[0];
            dbus_message_unref(message);
            if (owned) {
                double at = now_ms();
                cpu_at_name_ms = child_cpu_ms();
                dbus_bus_remove_match(bus, rule, NULL);
                return at - begun;
            }
        }
    }
}

static void stop(void) {
    if (child <= 0) return;
    kill(child, SIGTERM);
    for (int i = 0; i < 500; i++) {
        if (waitpid(child, NULL, WNOHANG) == child) { child = 0; return; }
        usleep(10000);
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    child = 0;
}

static void report_memory(void) {
    char path[64], line[512], mapping[512] = "";
    snprintf(path, sizeof path, "/proc/%d/status", child);
    FILE *status = fopen(path, "r");
    if (!status) fail("cannot read the player's status");
    while (fgets(line, sizeof line, status)) {
        long kib;
        if (sscanf(line, "VmRSS: %ld", &kib) == 1) printf("rss_kib %ld\n", kib);
    }
    fclose(status);
    /* Resident memory per mapped file (anonymous memory as "[anon]"), largest first via sort(1). */
    snprintf(path, sizeof path, "/proc/%d/smaps", child);
    FILE *smaps = fopen(path, "r");
    if (!smaps) return;
    const char *copy_path = getenv("STARTUP_PROBE_SMAPS");
    FILE *copy = copy_path ? fopen(copy_path, "w") : NULL;
    if (copy) {
        size_t length;
        while ((length = fread(line, 1, sizeof line, smaps)) > 0) fwrite(line, 1, length, copy);
        fclose(copy);
        rewind(smaps);
    }
    struct { char name[256]; long kib; } maps[512];
    int count = 0;
    while (fgets(line, sizeof line, smaps)) {
        long kib;
        char start[64], perms[8], offset[32], device[32], inode[32];
        int fields = sscanf(line, "%63s %7s %31s %31s %31s %511[^\n]", start, perms, offset, device, inode, mapping);
        if (fields >= 5 && strchr(start, '-')) {
            if (fields == 5) strcpy(mapping, "[anon]");
            char *trimmed = mapping;
            while (*trimmed == ' ') trimmed++;
            memmove(mapping, trimmed, strlen(trimmed) + 1);
        } else if (sscanf(line, "Rss: %ld", &kib) == 1) {
            int i;
            for (i = 0; i < count && strcmp(maps[i].name, mapping); i++) {}
            if (i == count && count < 512) {
                snprintf(maps[count].name, sizeof maps[count].name, "%s", mapping);
                maps[count++].kib = 0;
            }
            if (i < count) maps[i].kib += kib;
        }
    }
    fclose(smaps);
    for (int i = 0; i < count; i++)
        if (maps[i].kib >= 256) printf("map_kib %ld %s\n", maps[i].kib, maps[i].name);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: startup-probe launch NAME -- COMMAND... | startup-probe rss NAME SECONDS -- COMMAND...\n");
        return 64;
    }
    int rss = !strcmp(argv[1], "rss");
    int command = rss ? 5 : 4;
    if (command >= argc || strcmp(argv[command - 1], "--")) fail("expected -- before the command");
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) fail(error.message);
    dbus_connection_set_exit_on_disconnect(bus, 0);
    double ms = launch(bus, argv[2], argv + command);
    if (!rss) {
        printf("launch_ms %.2f\nlaunch_cpu_ms %.2f\n", ms, cpu_at_name_ms);
    } else {
        double seconds = atof(argv[3]);
        usleep((useconds_t)(seconds * 1e6));
        int status;
        if (waitpid(child, &status, WNOHANG) == child) { child = 0; fail("the player exited while playing"); }
        report_memory();
    }
    fflush(stdout);
    stop();
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}
