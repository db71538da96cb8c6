# Sourced by scripts/install.sh and update.sh: how the installed build lays its code out.
# Every function in a section of its own (our modules and the dependencies alike), linked by lld
# in the order update.sh recorded (linnet.order), so the functions that run while linnet starts,
# plays and answers calls share pages: the kernel keeps resident the file pages around every
# page that runs, so scattered hot code kept most of the binary resident. Relative relocations
# are packed (DT_RELR, glibc >= 2.36): 45,000 of them took 1 MB of the file, all read at start.
# A stale order still links (missing names are skipped) and only costs memory.
# Command-line flags rather than Package.swift settings: unsafe flags in the package would make
# SwiftPM refuse its library products (DBus, MPRIS, ...) as a dependency fetched by URL.
layout_flags=(
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xswiftc -use-ld=lld
  -Xlinker -z -Xlinker pack-relative-relocs
  -Xlinker "--symbol-ordering-file=$PWD/scripts/code-order/linnet.order"
  -Xlinker --no-warn-symbol-ordering
)

# No symbol table for other libraries to bind to. The Swift runtime's link arguments export every
# public symbol of linnet's own modules (6,500 names), and every symbol any library looks up at
# start or when GStreamer opens its plugins is first searched in the executable's table, so
# those 0.5 MB (.dynsym, .dynstr, .gnu.hash) were resident all the time. Nothing loaded into
# linnet binds to linnet's symbols; the runtime's own are hidden already (--exclude-libs ALL).
layout_flags+=(-Xlinker --no-export-dynamic)
