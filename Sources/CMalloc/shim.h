#ifndef LINNET_CMALLOC_SHIM_H
#define LINNET_CMALLOC_SHIM_H
// glibc's allocator controls (malloc_trim, mallopt, mallinfo2) for Swift: Glibc's Swift module
// does not export <malloc.h>, and returning freed heap to the system after a large release
// (a 100k-track queue replaced) needs malloc_trim.
#include <malloc.h>
#endif
