/* Time, statistics, output and the player process for mpris-bench. */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *player_label = "?";
pid_t player_pid = 0;

int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void sleep_ms(double ms) {
    if (ms <= 0) return;
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

double random_between(double low, double high) {
    return low + (high - low) * ((double)random() / (double)RAND_MAX);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void sort_doubles(double *values, int count) { qsort(values, (size_t)count, sizeof *values, compare_doubles); }

/* Nearest-rank percentile of sorted values. */
double percentile(const double *sorted, int count, double fraction) {
    if (count == 0) return 0;
    int rank = (int)(fraction * count + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > count) rank = count;
    return sorted[rank - 1];
}

void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "mpris-bench [%s]: ", player_label);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    stop_player();
    exit(1);
}

void output(const char *metric, double value) {
    printf("%s %s %.6g\n", player_label, metric, value);
    fflush(stdout);
}

pid_t launch(char *const argv[], const char *log_path) {
    pid_t pid = fork();
    if (pid < 0) fail("fork: %s", strerror(errno));
    if (pid == 0) {
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (log >= 0) {
            dup2(log, 1);
            dup2(log, 2);
            close(log);
        }
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        execvp(argv[0], argv);
        fprintf(stderr, "mpris-bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    player_pid = pid;
    return pid;
}

int player_alive(void) {
    if (player_pid <= 0) return 0;
    int status;
    pid_t done = waitpid(player_pid, &status, WNOHANG);
    if (done == player_pid) {
        player_pid = 0;
        return 0;
    }
    return 1;
}

void stop_player(void) {
    if (player_pid <= 0) return;
    kill(player_pid, SIGTERM);
    for (int i = 0; i < 300 && player_alive(); i++) sleep_ms(10);
    if (player_pid > 0) {
        kill(player_pid, SIGKILL);
        waitpid(player_pid, NULL, 0);
    }
    player_pid = 0;
}

/* utime + stime of the whole process (exited threads included), from /proc/<pid>/stat. */
double process_cpu_seconds(pid_t pid) {
    char path[64], buffer[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "r");
    if (!file) fail("cannot read %s (the player exited?)", path);
    size_t length = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[length] = 0;
    char *field = strrchr(buffer, ')');  /* the command name may contain spaces */
    if (!field) fail("unexpected %s", path);
    unsigned long long utime = 0, stime = 0;
    /* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
    if (sscanf(field + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        fail("unexpected %s", path);
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

double process_rss_kib(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *file = fopen(path, "r");
    if (!file) fail("cannot read %s (the player exited?)", path);
    double rss = -1;
    while (fgets(line, sizeof line, file))
        if (sscanf(line, "VmRSS: %lf", &rss) == 1) break;
    fclose(file);
    if (rss < 0) fail("no VmRSS in %s", path);
    return rss;
}
