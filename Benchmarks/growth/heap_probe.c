/*
 * heap-probe.so: reads glibc's heap figures from inside a running process, for the growth
 * benchmarks. Loaded with LD_PRELOAD; does nothing unless LINNET_HEAP_PROBE names a folder
 * holding two FIFOs, `request` and `reply` (the benchmark makes them), and the process is
 * linnet (its file name starts with "linnet", so a baseline copied as linnet-<rev> counts too),
 * so the driver and GStreamer helpers that inherit the variable stay untouched.
 *
 * A thread blocks reading `request`; for every byte it writes one line to `reply`:
 *   rss_kib <VmRSS> heap_kib <in use in the arenas> mmap_kib <in use in mmapped chunks>
 *   arena_kib <arena bytes from the system> free_kib <free in the arenas>
 * A shell reads one with `echo > DIR/request; read -r line < DIR/reply`.
 *
 * mallinfo2 (glibc >= 2.33) sums every arena, so "heap" is the live heap of all threads:
 * if RSS grows and heap does not, the growth is the allocator keeping freed pages
 * (fragmentation), not memory linnet still holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char request_path[4096], reply_path[4096];

static long resident_kib(void) {
    char line[256];
    long rss = -1;
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmRSS: %ld", &rss) == 1) break;
    fclose(status);
    return rss;
}

static void answer(void) {
    struct mallinfo2 info = mallinfo2();
    char line[256];
    int length = snprintf(line, sizeof line, "rss_kib %ld heap_kib %zu mmap_kib %zu arena_kib %zu free_kib %zu\n",
                          resident_kib(), info.uordblks / 1024, info.hblkhd / 1024, info.arena / 1024,
                          info.fordblks / 1024);
    int reply = open(reply_path, O_WRONLY | O_CLOEXEC);  /* blocks until the reader opens it */
    if (reply < 0) return;
    (void)!write(reply, line, (size_t)length);
    close(reply);
}

static void *serve(void *unused) {
    (void)unused;
    for (;;) {
        int request = open(request_path, O_RDONLY | O_CLOEXEC);  /* blocks until a writer opens it */
        if (request < 0) return NULL;
        char byte;
        while (read(request, &byte, 1) == 1) answer();
        close(request);
    }
}

__attribute__((constructor)) static void start_probe(void) {
    const char *folder = getenv("LINNET_HEAP_PROBE");
    if (!folder) return;
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0) return;
    exe[length] = 0;
    const char *base = strrchr(exe, '/');
    if (strncmp(base ? base + 1 : exe, "linnet", 6) != 0) return;
    snprintf(request_path, sizeof request_path, "%s/request", folder);
    snprintf(reply_path, sizeof reply_path, "%s/reply", folder);
    /* No signal reaches this thread: linnet's own signal handling stays as it is. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    if (pthread_create(&thread, &attributes, serve, NULL) == 0) pthread_detach(thread);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}
