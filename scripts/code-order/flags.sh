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

# Segments placed at addresses that equal their file offsets modulo 2 MiB (GNU ld's old x86-64
# default; no padding in the file). The kernel maps a code fault's neighbours by the page-cache
# folio they sit in (Linux 6.18 maps whole large folios around a fault; folios are aligned in the
# file, up to 2 MiB with this VM's 8 MiB read-ahead), and with lld's 4 KiB the code segment sat
# one page off its offset, so every 64 KiB folio straddled two of the 64 KiB windows faults are
# mapped by.
layout_flags+=(-Xlinker -z -Xlinker max-page-size=2097152)

# No symbol table for other libraries to bind to. The Swift runtime's link arguments export every
# public symbol of linnet's own modules (6,500 names), and every symbol any library looks up at
# start or when GStreamer opens its plugins is first searched in the executable's table, so
# those 0.5 MB (.dynsym, .dynstr, .gnu.hash) were resident all the time. Nothing loaded into
# linnet binds to linnet's symbols; the runtime's own are hidden already (--exclude-libs ALL).
layout_flags+=(-Xlinker --no-export-dynamic)

# libstdc++ linked in from its archive: the Swift runtime and the TagLib shim use a few of its
# functions (strings, operator new, __cxa_demangle), while the shared library costs ~1.5 MiB
# resident for its symbol tables and start-up code (gst-launch does not load it). The archive is
# found first through a folder that holds only it, since the runtime's link arguments and the
# C++ target ask for -lstdc++ by name. TagLib, opened only for tags the cache does not have,
# still brings the shared libstdc++ along, and that stays when TagLib is closed (its unique
# symbols keep it loaded): the gain holds while every file's tags come from the cache. The shim
# and TagLib meet through libstdc++'s stable ABI (the shim's header-inline code works on TagLib's
# objects either way).
# Without the archive (libstdc++-dev missing) the build links the shared library as before.
cxx_archive=$( (clang -print-file-name=libstdc++.a || gcc -print-file-name=libstdc++.a) 2>/dev/null || true)
if [[ $cxx_archive == /* && -f $cxx_archive ]]; then
  cxx_archive_dir=$PWD/.build/static/libstdc++-archive
  mkdir -p "$cxx_archive_dir"
  ln -sfn "$cxx_archive" "$cxx_archive_dir/libstdc++.a"
  layout_flags+=(-Xswiftc "-L$cxx_archive_dir")
fi
