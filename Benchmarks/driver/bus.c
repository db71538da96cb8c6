/* Bus connections, blocking calls and the launch measurement for mpris-bench. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A private connection to $DBUS_SESSION_BUS_ADDRESS, registered with the bus. */
DBusConnection *connect_bus(void) {
    const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
    if (!address) fail("DBUS_SESSION_BUS_ADDRESS is not set");
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_connection_open_private(address, &error);
    if (!bus) fail("cannot connect to %s: %s", address, error.message);
    dbus_connection_set_exit_on_disconnect(bus, 0);
    if (!dbus_bus_register(bus, &error)) fail("cannot register on the bus: %s", error.message);
    return bus;
}

static DBusMessage *vcall(DBusConnection *bus, int quiet, const char *destination, const char *interface,
                          const char *member, int first_type, va_list args) {
    const char *path = strcmp(destination, DBUS_SERVICE_DBUS) ? MPRIS_PATH : DBUS_PATH_DBUS;
    DBusMessage *message = dbus_message_new_method_call(destination, path, interface, member);
    if (first_type != DBUS_TYPE_INVALID) dbus_message_append_args_valist(message, first_type, args);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, 5000, &error);
    dbus_message_unref(message);
    if (!reply) {
        if (!quiet) fail("%s.%s on %s failed: %s", interface, member, destination, error.message);
        dbus_error_free(&error);
    }
    return reply;
}

DBusMessage *call(DBusConnection *bus, const char *destination, const char *interface, const char *member,
                  int first_type, ...) {
    va_list args;
    va_start(args, first_type);
    DBusMessage *reply = vcall(bus, 0, destination, interface, member, first_type, args);
    va_end(args);
    return reply;
}

DBusMessage *call_quiet(DBusConnection *bus, const char *destination, const char *interface, const char *member,
                        int first_type, ...) {
    va_list args;
    va_start(args, first_type);
    DBusMessage *reply = vcall(bus, 1, destination, interface, member, first_type, args);
    va_end(args);
    return reply;
}

void add_match(DBusConnection *bus, const char *rule) {
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_add_match(bus, rule, &error);
    if (dbus_error_is_set(&error)) fail("AddMatch %s: %s", rule, error.message);
}

char *name_owner(DBusConnection *bus, const char *name) {
    DBusMessage *reply = call(bus, DBUS_SERVICE_DBUS, DBUS_INTERFACE_DBUS, "GetNameOwner", DBUS_TYPE_STRING, &name,
                              DBUS_TYPE_INVALID);
    const char *owner = NULL;
    dbus_message_get_args(reply, NULL, DBUS_TYPE_STRING, &owner, DBUS_TYPE_INVALID);
    char *copy = strdup(owner ? owner : "");
    dbus_message_unref(reply);
    return copy;
}

int get_player_string(DBusConnection *bus, const char *destination, const char *property, char *out, size_t size) {
    const char *interface = MPRIS_PLAYER;
    DBusMessage *reply = call_quiet(bus, destination, DBUS_PROPERTIES, "Get", DBUS_TYPE_STRING, &interface,
                                    DBUS_TYPE_STRING, &property, DBUS_TYPE_INVALID);
    if (!reply) return 0;
    DBusMessageIter iter, variant;
    int ok = 0;
    if (dbus_message_iter_init(reply, &iter) && dbus_message_iter_get_arg_type(&iter) == DBUS_TYPE_VARIANT) {
        dbus_message_iter_recurse(&iter, &variant);
        if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_STRING) {
            const char *value;
            dbus_message_iter_get_basic(&variant, &value);
            snprintf(out, size, "%s", value);
            ok = 1;
        } else if (dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_ARRAY) {
            metadata_key(&variant, out, size);
            ok = 1;
        }
    }
    dbus_message_unref(reply);
    return ok;
}

/* Concatenates the string and object-path values of an a{sv}: trackid, url and title change
 * with every track in all three services. */
void metadata_key(DBusMessageIter *dict_iter, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    DBusMessageIter dict, entry, variant;
    dbus_message_iter_recurse(dict_iter, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        dbus_message_iter_recurse(&dict, &entry);
        const char *key;
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &variant);
        int type = dbus_message_iter_get_arg_type(&variant);
        if ((type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH) &&
            (!strcmp(key, "mpris:trackid") || !strcmp(key, "xesam:url") || !strcmp(key, "xesam:title"))) {
            const char *value;
            dbus_message_iter_get_basic(&variant, &value);
            int written = snprintf(out + used, size - used, "%s|", value);
            if (written > 0 && (size_t)written < size - used) used += (size_t)written;
        }
        dbus_message_iter_next(&dict);
    }
}

/* Whether the a{sv} at `dict_iter` has `key`. */
int dict_has_key(DBusMessageIter *dict_iter, const char *key) {
    DBusMessageIter dict, entry;
    dbus_message_iter_recurse(dict_iter, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        dbus_message_iter_recurse(&dict, &entry);
        const char *name;
        dbus_message_iter_get_basic(&entry, &name);
        if (!strcmp(name, key)) return 1;
        dbus_message_iter_next(&dict);
    }
    return 0;
}

/* Starts the player and times: exec → NameOwnerChanged(name) seen, and exec → first GetAll(Player)
 * answered. The clock starts right before fork. */
void measure_launch(DBusConnection *bus, const char *name, char *const argv[], const char *log_path,
                    const char *prefix, int timeout_s) {
    char rule[512], metric[128];
    snprintf(rule, sizeof rule,
             "type='signal',sender='" DBUS_SERVICE_DBUS "',member='NameOwnerChanged',arg0='%s'", name);
    add_match(bus, rule);
    int64_t start = now_ns();
    launch(argv, log_path);
    int64_t owned = 0;
    while (!owned) {
        if (!player_alive()) fail("%s exited before owning %s (see %s)", argv[0], name, log_path);
        if ((now_ns() - start) > timeout_s * (int64_t)1000000000)
            fail("%s did not own %s within %d s", argv[0], name, timeout_s);
        dbus_connection_read_write(bus, 20);
        DBusMessage *message;
        while (!owned && (message = dbus_connection_pop_message(bus))) {
            const char *changed = NULL, *old_owner = NULL, *new_owner = NULL;
            if (dbus_message_is_signal(message, DBUS_INTERFACE_DBUS, "NameOwnerChanged") &&
                dbus_message_get_args(message, NULL, DBUS_TYPE_STRING, &changed, DBUS_TYPE_STRING, &old_owner,
                                      DBUS_TYPE_STRING, &new_owner, DBUS_TYPE_INVALID) &&
                !strcmp(changed, name) && new_owner[0])
                owned = now_ns();
            dbus_message_unref(message);
        }
    }
    dbus_bus_remove_match(bus, rule, NULL);
    const char *interface = MPRIS_PLAYER;
    int64_t answered = 0;
    while (!answered) {
        DBusMessage *reply = call_quiet(bus, name, DBUS_PROPERTIES, "GetAll", DBUS_TYPE_STRING, &interface,
                                        DBUS_TYPE_INVALID);
        if (reply) {
            answered = now_ns();
            dbus_message_unref(reply);
        } else if (!player_alive() || now_ns() - start > timeout_s * (int64_t)1000000000) {
            fail("%s owns %s but never answered GetAll", argv[0], name);
        }
    }
    snprintf(metric, sizeof metric, "%slaunch_to_name_ms", prefix);
    output(metric, (double)(owned - start) / 1e6);
    snprintf(metric, sizeof metric, "%slaunch_to_getall_ms", prefix);
    output(metric, (double)(answered - start) / 1e6);
}

void wait_for_status(DBusConnection *bus, const char *name, const char *status, double timeout_s) {
    char value[64] = "";
    int64_t deadline = now_ns() + (int64_t)(timeout_s * 1e9);
    while (now_ns() < deadline) {
        if (get_player_string(bus, name, "PlaybackStatus", value, sizeof value) && !strcmp(value, status)) return;
        if (!player_alive()) fail("the player exited while waiting for %s", status);
        sleep_ms(20);
    }
    fail("PlaybackStatus stayed \"%s\", never became %s within %.0f s", value, status, timeout_s);
}
