#!/usr/bin/env python3
# 64 MB string to io.linnet.Linnet1.AddAlarm on linnet and on the C reference service, same run,
# with a concurrent Get(PlaybackStatus) probe from a second connection.
import asyncio, os, subprocess, sys, time
from dbus_next.aio import MessageBus
from dbus_next import Message, Variant

BIG = "x" * (64 * 1024 * 1024)

async def probe(bus, dest, stop, delays):
    while not stop.is_set():
        t = time.monotonic()
        await bus.call(Message(destination=dest, path="/org/mpris/MediaPlayer2", interface="org.freedesktop.DBus.Properties",
                               member="Get", signature="ss", body=["org.mpris.MediaPlayer2.Player", "PlaybackStatus"]))
        delays.append(time.monotonic() - t)
        await asyncio.sleep(0.01)

async def one(dest):
    sender = await MessageBus().connect()
    prober = await MessageBus().connect()
    stop = asyncio.Event(); delays = []
    task = asyncio.create_task(probe(prober, dest, stop, delays))
    await asyncio.sleep(0.2)
    t = time.monotonic()
    reply = await sender.call(Message(destination=dest, path="/org/mpris/MediaPlayer2", interface="io.linnet.Linnet1",
                                      member="AddAlarm", signature="sa{sv}", body=[BIG, {}]))
    elapsed = time.monotonic() - t
    await asyncio.sleep(0.2); stop.set(); await task
    body = (reply.body[0] if reply.body else "")
    print(f"{dest}: {elapsed:.3f} s, reply {reply.message_type.name} {reply.error_name} ({len(str(body))} chars), probe max {max(delays)*1000:.1f} ms over {len(delays)}")
    return elapsed, max(delays)

async def main():
    results = {}
    for round_ in range(3):
        for dest in ["org.mpris.MediaPlayer2.linnet", "org.mpris.MediaPlayer2.reference"]:
            results.setdefault(dest, []).append(await one(dest))
    for dest, values in results.items():
        e = sorted(v[0] for v in values); p = sorted(v[1] for v in values)
        print(f"median {dest}: {e[len(e)//2]:.3f} s, probe max median {p[len(p)//2]*1000:.1f} ms")

asyncio.run(main())
