"""Launches linnet on a music folder and times it: launch to bus name, and launch to every
queued track's tags published (each entry's GetTracksMetadata carries xesam:artist, which only
the tags give): taken when the last entry shows them, then confirmed for all. Prints `key value`
lines. Used by run.sh; needs dbus-next.

The time to all tags includes this probe's own reading of one full `Tracks` reply (10,000 object
paths parsed in Python); `<label>_probe_tracks_reply_ms` is that call timed again afterwards,
so a figure near the target can be told apart from the probe's share of it."""
import asyncio
import os
import subprocess
import sys
import time

from dbus_next import Message, MessageType
from dbus_next.aio import MessageBus

NAME = "org.mpris.MediaPlayer2.linnet"
PATH = "/org/mpris/MediaPlayer2"
TRACKLIST = "org.mpris.MediaPlayer2.TrackList"


async def call(bus, interface, member, signature="", body=()):
    reply = await bus.call(Message(destination=NAME, path=PATH, interface=interface, member=member,
                                   signature=signature, body=list(body)))
    if reply.message_type == MessageType.ERROR:
        raise RuntimeError(f"{member}: {reply.error_name} {reply.body}")
    return reply.body


async def has_owner(bus):
    reply = await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                                   interface="org.freedesktop.DBus", member="NameHasOwner", signature="s", body=[NAME]))
    return reply.body[0]


async def last_tagged(bus, expected):
    """The queue's ids once it is whole and its last entry shows its tags (the last entries are
    read last), else None: one small call per poll."""
    (tracks,) = await call(bus, "org.freedesktop.DBus.Properties", "Get", "ss", (TRACKLIST, "Tracks"))
    ids = tracks.value
    if len(ids) < expected:
        return None
    (maps,) = await call(bus, TRACKLIST, "GetTracksMetadata", "ao", ([ids[-1]],))
    return ids if len(maps) == 1 and "xesam:artist" in maps[0] else None


async def all_tagged(bus, ids):
    """Whether every entry shows its tags. Parsing 10 000 maps here takes ~1 s of this script's
    time, which is why it only confirms what `last_tagged` saw."""
    for first in range(0, len(ids), 500):
        chunk = ids[first:first + 500]
        (maps,) = await call(bus, TRACKLIST, "GetTracksMetadata", "ao", (chunk,))
        if len(maps) != len(chunk) or not all("xesam:artist" in m for m in maps):
            return False
    return True


def cpu_ms(pid):
    """User plus system CPU time the process has used so far: unlike wall time, it holds on a
    machine other work keeps busy."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


async def main(label, expected, command, log_path):
    bus = await MessageBus().connect()
    with open(log_path, "ab") as log:
        start = time.monotonic()
        player = subprocess.Popen(command, stdout=log, stderr=log)
    try:
        while not await has_owner(bus):
            if player.poll() is not None:
                raise RuntimeError(f"linnet exited with {player.returncode}")
            await asyncio.sleep(0.002)
        named = time.monotonic() - start
        cpu_named = cpu_ms(player.pid)
        # The time is taken when the last entry shows its tags; a full pass then confirms that
        # every entry does (if not, polling goes on and the time is taken again).
        while True:
            if player.poll() is not None:
                raise RuntimeError(f"linnet exited with {player.returncode}")
            if time.monotonic() - start > 600:
                raise RuntimeError("tags not all published within 600 s")
            ids = await last_tagged(bus, expected)
            if ids is not None:
                tagged = time.monotonic() - start
                cpu = cpu_ms(player.pid)
                if await all_tagged(bus, ids):
                    break
            await asyncio.sleep(0.02)
        print(f"{label}_launch_to_name_ms {named * 1000:.0f}")
        print(f"{label}_launch_to_all_tags_ms {tagged * 1000:.0f}")
        print(f"{label}_files_per_s_after_name {expected / max(tagged - named, 1e-6):.0f}")
        print(f"{label}_cpu_ms_to_name {cpu_named:.0f}")
        print(f"{label}_cpu_ms_to_all_tags {cpu:.0f}")
        probe_start = time.monotonic()
        await call(bus, "org.freedesktop.DBus.Properties", "Get", "ss", (TRACKLIST, "Tracks"))
        print(f"{label}_probe_tracks_reply_ms {(time.monotonic() - probe_start) * 1000:.0f}")
        await call(bus, "org.mpris.MediaPlayer2", "Quit")
        player.wait(timeout=60)
    finally:
        if player.poll() is None:
            player.kill()
            player.wait()


if __name__ == "__main__":
    label, expected, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    asyncio.run(main(label, expected, sys.argv[5:], log_path))
