/* The C floor for GetTracksMetadata (metadata_floor.c). */
#ifndef METADATA_FLOOR_H
#define METADATA_FLOOR_H

#include <dbus/dbus.h>
#include <sys/types.h>

#define FLOOR_NAME "org.linnet.BenchFloor"

/* Records `player`'s GetTracksMetadata reply for `ids` and starts a child answering every
 * GetTracksMetadata at MPRIS_PATH under FLOOR_NAME with it; returns the child's pid. */
pid_t metadata_floor_start(DBusConnection *bus, const char *player, char **ids, int count);
/* Ends the child. */
void metadata_floor_stop(pid_t responder);

#endif
