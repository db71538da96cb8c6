#include "linnet_lazy_libraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// One lock for every library: opening runs once per library, the lock is only taken on a
// library's first call (later calls jump straight through the filled slots).
static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

__attribute__((visibility("hidden")))
void *linnet_lazy_resolve(struct linnet_lazy_library *library, void *const *slot) {
    pthread_mutex_lock(&opening);
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) {
        // RTLD_GLOBAL: the library's symbols are visible to what it and GStreamer's plugins
        // open later, as they were when the loader opened it at start.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
        if (!handle) {
            fprintf(stderr, "linnet: cannot load %s: %s\n", library->soname, dlerror());
            abort();
        }
        for (unsigned long i = 0; i < library->count; i++) {
            void *function = dlsym(handle, library->names[i]);
            if (!function) {
                fprintf(stderr, "linnet: %s has no %s: %s\n", library->soname, library->names[i], dlerror());
                abort();
            }
            // A thread jumping through the slot meanwhile sees the stub or the function, both valid.
            __atomic_store_n(&library->slots[i], function, __ATOMIC_RELEASE);
        }
        __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&opening);
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}
