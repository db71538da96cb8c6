#ifndef LINNET_CGLIB_SHIM_H
#define LINNET_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>
#include <sys/timerfd.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

/// Callback shape of a GUnixFDSource.
typedef gboolean (*linnet_g_fd_callback)(gint fd, GIOCondition condition, gpointer user_data);

/// GUnixFDSource invokes a GUnixFDSourceFunc through the generic GSourceFunc slot; that function
/// pointer cast is a C idiom Swift cannot express, so it lives here.
static inline void linnet_g_source_set_fd_callback(GSource *source, linnet_g_fd_callback callback,
                                                   gpointer user_data, GDestroyNotify notify) {
    g_source_set_callback(source, (GSourceFunc)(void *)callback, user_data, notify);
}

/// G_SOURCE_CONTINUE / G_SOURCE_REMOVE and G_PRIORITY_* are macros; Swift does not import them.
static inline gboolean linnet_g_source_continue(void) { return G_SOURCE_CONTINUE; }
static inline gboolean linnet_g_source_remove(void) { return G_SOURCE_REMOVE; }
static inline gint linnet_g_priority_default(void) { return G_PRIORITY_DEFAULT; }
static inline gint linnet_g_priority_high(void) { return G_PRIORITY_HIGH; }

/// Names the calling thread for gdb, top and /proc (the kernel keeps 15 bytes); prctl is
/// variadic, so Swift cannot call it.
static inline void linnet_name_current_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/// A CLOCK_REALTIME timerfd. sys/timerfd.h is not part of Swift's Glibc module, and
/// TFD_TIMER_CANCEL_ON_SET is a macro.
static inline int linnet_wall_timer_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

/// Arms `fd` to expire at the absolute wall-clock time `seconds`.`nanoseconds` (0 disarms), and to
/// fail its next read with ECANCELED when the wall clock is set: an event, not a poll. Returns 0
/// or -1 (errno set).
static inline int linnet_wall_timer_arm(int fd, long long seconds, long nanoseconds) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

/// Reads the expiration count: >0 expired, 0 nothing yet, -1 the clock was set (ECANCELED),
/// -2 another error.
static inline long long linnet_wall_timer_read(int fd) {
    unsigned long long count = 0;
    ssize_t got = read(fd, &count, sizeof count);
    if (got == (ssize_t)sizeof count) return (long long)count;
    if (got < 0 && errno == ECANCELED) return -1;
    if (got < 0 && errno == EAGAIN) return 0;
    return -2;
}

#endif
