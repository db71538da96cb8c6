#include "linnet_lazy_libraries.h"
#include "linnet_library_unloading.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// One lock for every library: opening runs once per library, the lock is only taken on a
// library's first call (later calls jump straight through the filled slots). Unloading and the
// use counts of the unloadable libraries take it too, so a library is never closed between a
// use's start and its first call.
static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

// What opening a library adds to its descriptor: the handle to close it with and the slots'
// first values (their stubs), to put back when it is closed. Four libraries: see symbols.inc.
struct opened_library {
    struct linnet_lazy_library *library;
    void *handle;
    void **stubs;
    unsigned long users;
};
static struct opened_library opened[4];

static struct opened_library *record_of(struct linnet_lazy_library *library) {
    for (unsigned long i = 0; i < sizeof opened / sizeof opened[0]; i++) {
        if (opened[i].library == library || !opened[i].library) {
            opened[i].library = library;
            return &opened[i];
        }
    }
    fprintf(stderr, "linnet: more lazily loaded libraries than LazyLibraries records\n");
    abort();
}

__attribute__((visibility("hidden")))
void *linnet_lazy_resolve(struct linnet_lazy_library *library, void *const *slot) {
    pthread_mutex_lock(&opening);
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) {
        struct opened_library *record = record_of(library);
        if (!record->stubs) {
            // Only ever the stubs here: slots hold them until the first opening and again after
            // each closing.
            record->stubs = malloc(library->count * sizeof(void *));
            if (!record->stubs) abort();
            memcpy(record->stubs, library->slots, library->count * sizeof(void *));
        }
        // RTLD_GLOBAL: the library's symbols are visible to what it and GStreamer's plugins
        // open later, as they were when the loader opened it at start.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
        if (!handle) {
            fprintf(stderr, "linnet: cannot load %s: %s\n", library->soname, dlerror());
            abort();
        }
        record->handle = handle;
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

// Laid out by lazy_library_end in the trampolines_<arch>.S files.
extern struct linnet_lazy_library sqlite_library, tag_library;

static struct linnet_lazy_library *unloadable(linnet_unloadable_library library) {
    return library == linnet_unloadable_sqlite ? &sqlite_library : &tag_library;
}

void linnet_library_use_begin(linnet_unloadable_library library) {
    pthread_mutex_lock(&opening);
    record_of(unloadable(library))->users++;
    pthread_mutex_unlock(&opening);
}

void linnet_library_use_end(linnet_unloadable_library library) {
    pthread_mutex_lock(&opening);
    struct opened_library *record = record_of(unloadable(library));
    if (record->users == 0) {
        fprintf(stderr, "linnet: a use of %s ended that never began\n", unloadable(library)->soname);
        abort();
    }
    record->users--;
    pthread_mutex_unlock(&opening);
}

int linnet_library_unload_if_unused(linnet_unloadable_library library) {
    struct linnet_lazy_library *descriptor = unloadable(library);
    int closed = 0;
    pthread_mutex_lock(&opening);
    struct opened_library *record = record_of(descriptor);
    if (record->users == 0 && __atomic_load_n(&descriptor->loaded, __ATOMIC_ACQUIRE)) {
        // Stubs first: from here on a call (there is none in progress, by the contract) opens
        // the library again instead of jumping into code about to be unmapped.
        __atomic_store_n(&descriptor->loaded, 0, __ATOMIC_RELEASE);
        for (unsigned long i = 0; i < descriptor->count; i++) {
            __atomic_store_n(&descriptor->slots[i], record->stubs[i], __ATOMIC_RELEASE);
        }
        dlclose(record->handle);
        record->handle = NULL;
        closed = 1;
    }
    pthread_mutex_unlock(&opening);
    return closed;
}

int linnet_library_is_loaded(linnet_unloadable_library library) {
    return (int)__atomic_load_n(&unloadable(library)->loaded, __ATOMIC_ACQUIRE);
}
