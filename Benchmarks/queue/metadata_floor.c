/*
 * The C floor for GetTracksMetadata: a libdbus responder in a child process that answers each
 * GetTracksMetadata by reading the requested ids and writing back, value by value with
 * libdbus's iterators, one reply linnet gave for 20 of its own tracks. Its latency is what the
 * bus, libdbus and the client cost for a reply of that size and shape, with no player behind it.
 */
#include "metadata_floor.h"
#include "../driver/bench.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The signature a container opened around `inner` needs, in `buffer` where it is short, else
 * allocated (returned in *allocated for the caller to free). */
static const char *contained_signature(int type, DBusMessageIter *outer, DBusMessageIter *inner, char *buffer,
                                       char **allocated) {
    *allocated = NULL;
    int element = type == DBUS_TYPE_ARRAY ? dbus_message_iter_get_element_type(outer) : dbus_message_iter_get_arg_type(inner);
    if (type == DBUS_TYPE_STRUCT || type == DBUS_TYPE_DICT_ENTRY) return NULL;
    if (dbus_type_is_basic(element)) {
        buffer[0] = (char)element;
        buffer[1] = 0;
        return buffer;
    }
    if (type == DBUS_TYPE_VARIANT && element == DBUS_TYPE_ARRAY) {
        DBusMessageIter probe = *inner;
        int innermost = dbus_message_iter_get_element_type(&probe);
        if (dbus_type_is_basic(innermost)) {
            buffer[0] = 'a';
            buffer[1] = (char)innermost;
            buffer[2] = 0;
            return buffer;
        }
    }
    *allocated = dbus_message_iter_get_signature(inner);
    return *allocated;
}

static void copy_values(DBusMessageIter *from, DBusMessageIter *to) {
    for (int type; (type = dbus_message_iter_get_arg_type(from)) != DBUS_TYPE_INVALID; dbus_message_iter_next(from)) {
        if (dbus_type_is_basic(type)) {
            DBusBasicValue value;
            dbus_message_iter_get_basic(from, &value);
            dbus_message_iter_append_basic(to, type, &value);
            continue;
        }
        DBusMessageIter inner_from, inner_to;
        char buffer[4], *allocated;
        dbus_message_iter_recurse(from, &inner_from);
        const char *signature = contained_signature(type, from, &inner_from, buffer, &allocated);
        dbus_message_iter_open_container(to, type, signature, &inner_to);
        copy_values(&inner_from, &inner_to);
        dbus_message_iter_close_container(to, &inner_to);
        dbus_free(allocated);
    }
}

static _Noreturn void respond(DBusMessage *recorded, int ready) {
    DBusConnection *bus = connect_bus();
    DBusError error;
    dbus_error_init(&error);
    if (dbus_bus_request_name(bus, FLOOR_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER)
        fail("the floor responder cannot own %s", FLOOR_NAME);
    if (write(ready, "1", 1) != 1) fail("the floor responder cannot report");
    close(ready);
    while (dbus_connection_read_write(bus, -1)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            if (dbus_message_is_method_call(message, MPRIS_TRACKLIST, "GetTracksMetadata")) {
                /* The ids are read as linnet reads them, though every answer is the recorded one. */
                DBusMessageIter iter, ids;
                size_t total = 0;
                dbus_message_iter_init(message, &iter);
                dbus_message_iter_recurse(&iter, &ids);
                while (dbus_message_iter_get_arg_type(&ids) == DBUS_TYPE_OBJECT_PATH) {
                    const char *path;
                    dbus_message_iter_get_basic(&ids, &path);
                    total += strlen(path);
                    dbus_message_iter_next(&ids);
                }
                if (total == 0) fail("the floor responder got no ids");
                DBusMessage *reply = dbus_message_new_method_return(message);
                DBusMessageIter from, to;
                dbus_message_iter_init(recorded, &from);
                dbus_message_iter_init_append(reply, &to);
                copy_values(&from, &to);
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
            }
            dbus_message_unref(message);
        }
    }
    _exit(0);
}

pid_t metadata_floor_start(DBusConnection *bus, const char *player, char **ids, int count) {
    DBusMessage *message = dbus_message_new_method_call(player, MPRIS_PATH, MPRIS_TRACKLIST, "GetTracksMetadata");
    dbus_message_append_args(message, DBUS_TYPE_ARRAY, DBUS_TYPE_OBJECT_PATH, &ids, count, DBUS_TYPE_INVALID);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *recorded = dbus_connection_send_with_reply_and_block(bus, message, 10000, &error);
    dbus_message_unref(message);
    if (!recorded) fail("GetTracksMetadata for the floor: %s", error.message);
    int ready[2];
    if (pipe(ready) != 0) fail("pipe");
    pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) {
        close(ready[0]);
        respond(recorded, ready[1]);
    }
    close(ready[1]);
    char byte;
    if (read(ready[0], &byte, 1) != 1) fail("the floor responder did not start");
    close(ready[0]);
    dbus_message_unref(recorded);
    return child;
}

void metadata_floor_stop(pid_t responder) {
    kill(responder, SIGTERM);
    waitpid(responder, NULL, 0);
}
