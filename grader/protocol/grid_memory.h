// grader/protocol/grid_memory.h — host memory for large grids, one rule for
// the judge, the executor and the emulation runner: for a block of
// megabytes the kernel is asked for 2 MiB pages (transparent huge pages,
// madvise), so that its first touch faults every 2 MiB, not every 4 KiB. On
// a machine whose kernel lends them only when asked (enabled = madvise) a
// 4 KiB page's first touch made a 1 GiB grid's first write about 3x slower,
// and lab 1's check under emulation took twice as long. A kernel that lends
// none says no: small pages, as without.
#ifndef STENCIL_GRID_MEMORY_H
#define STENCIL_GRID_MEMORY_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PROTOCOL_HUGE_BYTES ((size_t)4 << 20)  // smaller blocks keep small pages
#define PROTOCOL_HUGE_PAGE ((uintptr_t)2 << 20)

// Asks for huge pages over the whole 2 MiB pages inside [p, p + bytes).
static inline void protocol_huge_pages(void *p, size_t bytes)
{
    uintptr_t from = ((uintptr_t)p + PROTOCOL_HUGE_PAGE - 1) & ~(PROTOCOL_HUGE_PAGE - 1);
    uintptr_t to = ((uintptr_t)p + bytes) & ~(PROTOCOL_HUGE_PAGE - 1);
    if (p && bytes >= PROTOCOL_HUGE_BYTES && to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE);
}

// bytes of host memory (free() frees it; malloc's own mapping for a block
// this large), huge pages asked for; NULL when there is none.
static inline void *protocol_grid_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    protocol_huge_pages(p, bytes);
    return p;
}

#endif // STENCIL_GRID_MEMORY_H
