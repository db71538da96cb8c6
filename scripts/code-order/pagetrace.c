/* Preloaded into linnet by update.sh: records which pages of the executable's code run.
 *
 * Before main, the executable's code segment is made inaccessible. The first touch of each page
 * faults here; the address that touched it (the instruction, so it names the function exactly),
 * as an offset from the load address, is appended to $LINNET_PAGETRACE (8 bytes, native order)
 * and the page is given back its access, so each page costs one fault and the program otherwise
 * runs as usual. Only update.sh uses it (never a build or a test); what it
 * records is what order.py turns into the linker's symbol order.
 *
 * While it traces, handlers others install for SIGSEGV are recorded but not installed (GStreamer
 * traps SIGSEGV while it loads a plugin, and a plugin's first call into the executable would
 * otherwise reach its handler).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long code_start, code_end, load_address;
static int trace = -1;
static int tracing;
static struct sigaction others_handler;

int sigaction(int signal_number, const struct sigaction *action, struct sigaction *previous) {
    static int (*real)(int, const struct sigaction *, struct sigaction *);
    if (!real) real = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
    if (!tracing || signal_number != SIGSEGV) return real(signal_number, action, previous);
    if (previous) *previous = others_handler;
    if (action) others_handler = *action;
    return 0;
}

sighandler_t signal(int signal_number, sighandler_t handler) {
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    if (sigaction(signal_number, &action, &previous) != 0) return SIG_ERR;
    return previous.sa_handler;
}

static void first_touch(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    unsigned long address = (unsigned long)info->si_addr;
    if (address < code_start || address >= code_end) {
        /* A real fault: let it kill the process as it would have. */
        tracing = 0;
        signal(signal_number, SIG_DFL);
        return;
    }
    unsigned long page = address & ~4095UL, offset = address - load_address;
    if (write(trace, &offset, sizeof offset) != sizeof offset) _exit(70);
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
}

static int note_load_address(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    if (info->dlpi_name[0] != 0) return 0;
    load_address = info->dlpi_addr;  /* the executable comes first, with an empty name */
    return 1;
}

__attribute__((constructor)) static void start_tracing(void) {
    const char *path = getenv("LINNET_PAGETRACE");
    if (!path) return;
    trace = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (trace < 0 || length <= 0) return;
    executable[length] = 0;
    dl_iterate_phdr(note_load_address, NULL);
    FILE *maps = fopen("/proc/self/maps", "re");
    char line[8192];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char permissions[8], file[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095[^\n]", &start, &end, permissions, file) < 3) continue;
        if (!strcmp(file, executable) && permissions[2] == 'x') { code_start = start; code_end = end; }
    }
    if (maps) fclose(maps);
    if (!code_start) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = first_touch;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &action, NULL);
    tracing = 1;
    mprotect((void *)code_start, code_end - code_start, PROT_NONE);
}
