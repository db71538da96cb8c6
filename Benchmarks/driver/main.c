/*
 * mpris-bench
 *   round  --label L --name BUS.NAME --log FILE [--calls N] [--reps N] [--clients N]
 *          [--throughput-seconds S] [--cpu-seconds S] -- player command...
 *   queue  --label L --name BUS.NAME --log FILE [--calls N] -- small command... --- large command...
 *   report --players a,b,c [--out file.md] [--title text] results...
 *   link   SOURCE DIRECTORY COUNT   (COUNT hard links to SOURCE: the large queue's "files")
 * DBUS_SESSION_BUS_ADDRESS names the (private) bus. `round` and `queue` start the player themselves
 * (the launch is part of what they measure) and stop it at the end.
 */
#include "bench.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int make_links(const char *source, const char *directory, int count) {
    char path[4096];
    for (int i = 1; i <= count; i++) {
        snprintf(path, sizeof path, "%s/track%05d.ogg", directory, i);
        if (link(source, path) != 0) fail("cannot link %s", path);
    }
    return 0;
}

static void on_signal(int number) {
    (void)number;
    stop_player();
    _exit(130);
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "report")) return run_report(argc - 2, argv + 2);
    if (argc == 5 && !strcmp(argv[1], "link")) return make_links(argv[2], argv[3], atoi(argv[4]));
    if (argc < 2 || (strcmp(argv[1], "round") && strcmp(argv[1], "queue"))) {
        fprintf(stderr, "usage: mpris-bench round|queue|report ... (see main.c)\n");
        return 64;
    }
    const char *name = NULL, *log_path = "/dev/null";
    struct settings s = {.calls = 2000, .reps = 30, .clients = 8, .throughput_s = 5, .cpu_s = 20};
    int i = 2;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (i + 1 >= argc) break;
        if (!strcmp(argv[i], "--label")) player_label = argv[++i];
        else if (!strcmp(argv[i], "--name")) name = argv[++i];
        else if (!strcmp(argv[i], "--log")) log_path = argv[++i];
        else if (!strcmp(argv[i], "--calls")) s.calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps")) s.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--clients")) s.clients = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--throughput-seconds")) s.throughput_s = atof(argv[++i]);
        else if (!strcmp(argv[i], "--cpu-seconds")) s.cpu_s = atof(argv[++i]);
        else fail("unknown option %s", argv[i]);
    }
    if (!name || i >= argc - 1) fail("need --name and -- command");
    if (s.calls < 1 || s.reps < 1 || s.clients < 1) fail("counts must be positive");
    char **command = argv + i + 1;
    srandom((unsigned)time(NULL) ^ (unsigned)getpid());
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (!strcmp(argv[1], "round")) {
        run_player_round(name, command, log_path, &s);
        return 0;
    }
    char **large = command;
    while (*large && strcmp(*large, "---")) large++;
    if (!*large || !large[1]) fail("queue needs: -- small command --- large command");
    *large++ = NULL;
    run_queue_test(name, command, large, log_path, s.calls < 200 ? s.calls : 200);
    return 0;
}
