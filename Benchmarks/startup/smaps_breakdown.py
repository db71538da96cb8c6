"""Where a process's resident memory is: /proc/PID/smaps summed per kind of mapping.

    python3 smaps_breakdown.py SMAPS_FILE [LABEL]

SMAPS_FILE is a copy of /proc/PID/smaps (or the live file). Prints one line per group, in KiB:
Rss, Private_Dirty, Shared_Clean, Private_Clean and Anonymous, then the total. Groups:

  binary code / binary data   the executable's own mappings (its path is the first mapping's)
  swift runtime               libswift*, libFoundation*, lib_Foundation*, libdispatch, libBlocksRuntime
  gstreamer libs / plugins    libgst* outside and inside gstreamer-1.0/ plugin folders
  glib                        libglib, libgobject, libgio, libgmodule
  libc and c++                libc, libm, ld-linux, libstdc++, libgcc_s, libpthread
  other libraries             any other mapped file
  [heap]                      the main malloc arena (brk)
  malloc arenas               anonymous read-write mappings starting on a 64 MiB boundary (glibc
                              puts each per-thread arena's heap there)
  thread stacks               anonymous read-write mappings right after a 4 KiB no-access guard
  other anonymous             the rest (large malloc blocks, GLib slices, Swift metadata, ...)
  [stack] / vdso etc          the main thread's stack and the kernel's pages
"""
import re
import sys

FIELDS = ("Rss", "Private_Dirty", "Shared_Clean", "Private_Clean", "Anonymous")
HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$")
ARENA_ALIGNMENT = 64 << 20


def library_group(path):
    name = path.rsplit("/", 1)[-1]
    if "/gstreamer-1.0/" in path:
        return "gstreamer plugins"
    if name.startswith(("libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime")):
        return "swift runtime"
    if name.startswith("libgst"):
        return "gstreamer libs"
    if name.startswith(("libglib-", "libgobject-", "libgio-", "libgmodule-")):
        return "glib"
    if name.startswith(("libc.", "libm.", "ld-linux", "libstdc++", "libgcc_s", "libpthread")):
        return "libc and c++"
    return "other libraries"


def mappings(lines):
    """(start, end, perms, path, fields) per mapping, in address order."""
    current = None
    for line in lines:
        header = HEADER.match(line)
        if header:
            if current:
                yield current
            start, end, perms, path = header.groups()
            current = (int(start, 16), int(end, 16), perms, path.strip(), dict.fromkeys(FIELDS, 0))
        elif current:
            key, _, value = line.partition(":")
            if key in current[4]:
                current[4][key] = int(value.split()[0])
    if current:
        yield current


def breakdown(lines):
    maps = list(mappings(lines))
    binary = next((m[3] for m in maps if m[3].startswith("/")), "")
    totals = {}
    previous = None
    for start, end, perms, path, fields in maps:
        if path == binary:
            group = "binary code" if "x" in perms else "binary data"
        elif path.startswith("/"):
            group = library_group(path)
        elif path == "[heap]":
            group = "[heap]"
        elif path:
            group = "[stack] / vdso etc"
        elif perms.startswith("rw") and start % ARENA_ALIGNMENT == 0:
            group = "malloc arenas"
        elif (perms.startswith("rw") and previous and previous[2] == start and previous[1] == "---p"
              and previous[3] == "" and previous[4] == 4096):
            group = "thread stacks"
        else:
            group = "other anonymous"
        previous = (start, perms, end, path, end - start)
        row = totals.setdefault(group, dict.fromkeys(FIELDS, 0))
        for key in FIELDS:
            row[key] += fields[key]
    return binary, totals


def main():
    with open(sys.argv[1]) as source:
        binary, totals = breakdown(source)
    label = sys.argv[2] if len(sys.argv) > 2 else binary
    print(f"smaps of {label} (KiB)")
    print(f"  {'group':<22}" + "".join(f"{key:>15}" for key in FIELDS))
    for group, row in sorted(totals.items(), key=lambda item: -item[1]["Rss"]):
        print(f"  {group:<22}" + "".join(f"{row[key]:>15}" for key in FIELDS))
    print(f"  {'total':<22}" + "".join(f"{sum(r[k] for r in totals.values()):>15}" for k in FIELDS))


if __name__ == "__main__":
    main()
