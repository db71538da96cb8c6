"""Writes the linker's symbol order for linnet from page traces (see update.sh).

    python3 order.py BINARY LINK_MAP PREVIOUS_ORDER TRACE... > linnet.order

A trace is a page trace or a callgrind profile (update.sh's last pass, which names every function
that ran; see traced_functions). A page trace holds, for each code page of BINARY that ran, the
address of the instruction that first touched it. The function there ran; the rest of its page may not have. Each function seen is
added to PREVIOUS_ORDER's (an empty file to start from), in the order first seen, so start-up code
comes first. Laid out by that list, the next run touches the packed functions first and the ones
still missing where they lie, where their first touch names them: update.sh repeats this until a
run finds (almost) no new function.

The linker moves sections, not functions. Most of the Swift runtime's archives put each function
in a section of its own, but each object's local functions share one plain `.text` (1.6 MB in
libswiftCore's Swift.o). Naming one function of such a section drags all of it along, so the
functions of shared sections larger than SHARED_SECTION_LIMIT (read from lld's map of BINARY,
LINK_MAP) are listed after all the others, below SHARED_MARK: the hot functions are packed first,
then come the large sections that hold some of them, and everything that never ran follows. (The
kernel maps a file's pages by the 64 KiB around a fault, or by the whole large folio it sits in;
so what matters is that no page that runs sits among the megabytes that never do.)"""
import bisect
import re
import struct
import subprocess
import sys

NM = "/opt/swift/usr/bin/llvm-nm"
SHARED_SECTION_LIMIT = 16 * 1024
MAP_ENTRY = re.compile(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+( +)(\S.*)$")
SYMBOL_INDENT = 16
SHARED_MARK = "# sections shared with code that does not run:"


def code_symbols(binary):
    symbols = []
    listing = subprocess.run([NM, "--defined-only", "--numeric-sort", binary], capture_output=True, text=True,
                             check=True).stdout
    for line in listing.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in ("t", "T", "w", "W"):
            symbols.append((int(parts[0], 16), parts[2]))
    return symbols


def symbols_in_large_shared_sections(link_map):
    """Section number of each function that shares an input section larger than the limit.
    lld's map lists each input section (`VMA LMA SIZE ALIGN file:(section)`) followed by its
    symbols (the same columns, the name indented deeper)."""
    names, section, size, number = {}, [], 0, 0

    def finish():
        nonlocal number
        if len(section) > 1 and size > SHARED_SECTION_LIMIT:
            number += 1
            names.update((name, number) for name in section)

    with open(link_map) as source:
        for line in source:
            entry = MAP_ENTRY.match(line)
            if not entry:
                continue
            gap, what = entry.group(2), entry.group(3)
            if ":(" in what and len(gap) < SYMBOL_INDENT:
                finish()
                section, size = [], int(entry.group(1), 16)
            elif len(gap) >= SYMBOL_INDENT:
                section.append(what)
    finish()
    return names


def previous_order(path):
    """The two groups of a list this script wrote: packed functions, then shared sections."""
    packed, shared = [], []
    group = packed
    with open(path) as source:
        for line in source:
            line = line.rstrip("\n")
            if line == SHARED_MARK:
                group = shared
            elif line and not line.startswith("#"):
                group.append(line)
    return packed, shared


def traced_functions(trace, symbols, addresses):
    """The functions a trace saw run, in its order: a page trace (pagetrace.c's 8-byte
    addresses) or a callgrind profile of the executable (update.sh's callgrind pass), whose
    `fn=` lines name every function that ran (those after an `ob=` naming another file are
    another library's)."""
    with open(trace, "rb") as source:
        data = source.read()
    if data.startswith(b"# callgrind format") or data.startswith(b"version:"):
        in_binary = False
        for line in data.decode("utf-8", "replace").splitlines():
            if line.startswith("ob="):
                in_binary = line.endswith("/linnet-nodebug") or line.endswith("/linnet")
            elif line.startswith("fn=") and in_binary:
                yield line[3:].strip()
        return
    for (address,) in struct.iter_unpack("<Q", data[: len(data) // 8 * 8]):
        index = bisect.bisect_right(addresses, address) - 1
        if index >= 0:
            yield symbols[index][1]


def main():
    binary, link_map, previous, traces = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    shared_section = symbols_in_large_shared_sections(link_map)
    symbols = code_symbols(binary)
    addresses = [address for address, _ in symbols]
    packed, shared = previous_order(previous)
    seen = set(packed) | set(shared)
    placed = {shared_section[name] for name in shared if name in shared_section}
    names = {name for _, name in symbols}
    for trace in traces:
        for name in traced_functions(trace, symbols, addresses):
            if name not in names or name in seen:
                continue
            seen.add(name)
            if name not in shared_section:
                packed.append(name)
            elif shared_section[name] not in placed:  # one name places the whole section
                placed.add(shared_section[name])
                shared.append(name)
    print("# linnet's code in the order it first runs (scripts/code-order/update.sh); lld's")
    print("# --symbol-ordering-file. Generated: do not edit. A stale list only costs memory.")
    print("\n".join(packed))
    print(SHARED_MARK)
    print("\n".join(shared))


if __name__ == "__main__":
    main()
