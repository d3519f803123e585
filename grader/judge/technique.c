// grader/judge/technique.c — see technique.h.
#include "technique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int technique_launch(const kv_list *report, int idx, launch_info *li)
{
    char key[48];
    size_t dyn = 0, stat = 0;
    int regs = 0;
    snprintf(key, sizeof(key), "launch.%d", idx);
    const char *v = kv_get(report, key);
    memset(li, 0, sizeof(*li));
    if (!v || sscanf(v, "kernel=%127s grid=%llu,%llu,%llu block=%llu,%llu,%llu dynamic_smem=%zu static_smem=%zu regs=%d",
                     li->kernel, &li->grid[0], &li->grid[1], &li->grid[2], &li->block[0],
                     &li->block[1], &li->block[2], &dyn, &stat, &regs) != 10)
        return -1;
    // Attributes the launch log could not read come from the runner's own query of the lab's kernel.
    if (regs < 0 && strstr(li->kernel, "stencil_kernel"))
        stat = (size_t)kv_number(report, "kernel_static_smem", 0);
    li->smem = dyn + stat;
    return 0;
}

// Threads in one block, and in the whole launch.
static unsigned long long technique_block_threads(const launch_info *li)
{
    return li->block[0] * li->block[1] * li->block[2];
}
static unsigned long long technique_threads(const launch_info *li)
{
    return technique_block_threads(li) * li->grid[0] * li->grid[1] * li->grid[2];
}

// Lab 1: one launch, at least one thread per interior point.
static void technique_naive(const launch_info *li, unsigned int n, technique_result *r)
{
    unsigned long long interior = n > 2 ? (unsigned long long)(n - 2) * (n - 2) * (n - 2) : 0;
    unsigned long long threads = technique_threads(li);
    r->status = threads >= interior ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%s: %llu threads for %llu interior points (N=%u)%s",
             r->status == TECHNIQUE_OK ? "one thread per output point" : "fewer threads than output points",
             threads, interior, n,
             r->status == TECHNIQUE_OK ? "" : "; this lab asks for one thread per output point, as in Fig 8.6");
}

// Lab 2: the input tile (T^3 floats) in shared memory; block = input or output tile.
static void technique_shared_tile(const launch_info *li, int t, technique_result *r)
{
    unsigned long long bt = technique_block_threads(li);
    size_t need = (size_t)t * t * t * sizeof(float);
    int block_ok = bt == (unsigned long long)t * t * t || bt == (unsigned long long)(t - 2) * (t - 2) * (t - 2);
    r->status = (li->smem >= need && block_ok) ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%zu B shared per block (input tile T^3 = %zu B at T=%d), %llu threads per block (T^3 = %d or (T-2)^3 = %d)%s",
             li->smem, need, t, bt, t * t * t, (t - 2) * (t - 2) * (t - 2),
             r->status == TECHNIQUE_OK ? "" : "; this lab expects the whole input tile in shared memory and a block shaped like the input tile or the output tile (Fig 8.8)");
}

// Labs 3 and 4: a T^2 block marching in z: about N^3/(T-2) threads, not N^3,
// and the shared memory the variant keeps (three planes, or at most one).
static void technique_z_march(const launch_info *li, int t, unsigned int n, int planes,
                              technique_result *r)
{
    unsigned long long out_tile = (unsigned long long)t - 2, tiles = (n + out_tile - 1) / out_tile;
    unsigned long long expect = tiles * tiles * tiles * (unsigned long long)t * t;
    unsigned long long threads = technique_threads(li);
    size_t plane = (size_t)t * t * sizeof(float);
    // Small grids have few planes to march through: there the launch is only held to the coarsened shape.
    int threads_ok = threads <= 2 * expect && (n < 64 || threads * 4 <= (unsigned long long)n * n * n);
    int smem_ok = planes == 3 ? li->smem >= 3 * plane : li->smem <= plane + 256;
    r->status = threads_ok && smem_ok ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%llu threads for N=%u (coarsened: about %llu), %zu B shared per block (%s %zu B)%s%s",
             threads, n, expect, li->smem, planes == 3 ? "three planes:" : "at most one plane:",
             planes == 3 ? 3 * plane : plane,
             threads_ok ? "" : "; each thread should march through OUT_TILE_DIM planes in z, so far fewer threads than points are launched (Fig 8.10)",
             smem_ok ? "" : (planes == 3 ? "; keep the previous, current and next planes in shared memory" : "; keep only the current plane in shared memory and the z neighbours in registers (Fig 8.12)"));
}

// Lab 5: each iteration launches the sweep once and, unless the boundary is
// Dirichlet, a separate boundary kernel once: that many kernels launched at
// least once per iteration, and at most 4 launches per iteration in all
// (residual checks add a few).
static void technique_jacobi(const kv_list *report, long launches, technique_result *r)
{
    int iters = (int)kv_number(report, "iterations", 0), kinds = (int)kv_number(report, "kernels", 0);
    const char *bc = kv_get(report, "bc");
    int need = bc && strcmp(bc, "dirichlet") != 0 ? 2 : 1, every = 0;
    char seen[256] = "";
    for (int q = 0; q < kinds; q++) {
        char key[32], name[128] = "?";
        long count = 0;
        snprintf(key, sizeof(key), "kernel.%d", q);
        if (!kv_get(report, key) || sscanf(kv_get(report, key), "%ld %127s", &count, name) < 1)
            continue;
        every += iters > 0 && count >= iters;
        size_t used = strlen(seen);
        snprintf(seen + used, sizeof(seen) - used, "%s%ld x %s", q ? ", " : "", count, name);
    }
    r->status = iters > 0 && every >= need && launches <= 4L * iters + 8 ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%.2f launches per iteration over %d iterations (%s boundary): %s%s",
             iters > 0 ? (double)launches / iters : 0.0, iters, bc ? bc : "?", seen,
             r->status == TECHNIQUE_OK ? "" : "; this lab expects a sweep kernel and (except for Dirichlet) a separate boundary kernel, each launched once per iteration");
}

technique_result technique_check(const char *technique, const kv_list *report, unsigned int n)
{
    technique_result r;
    launch_info li;
    long launches = (long)kv_number(report, "launches", -1);
    int t = (int)kv_number(report, "in_tile_dim", 0);
    memset(&r, 0, sizeof(r));
    r.status = TECHNIQUE_NA;
    if (launches < 0) {
        snprintf(r.detail, sizeof(r.detail), "launches were not recorded (%s)",
                 kv_get(report, "launch_log_error") ? kv_get(report, "launch_log_error") : "no launch log");
        return r;
    }
    r.status = TECHNIQUE_FAIL;
    if (!strcmp(technique, "jacobi")) {
        technique_jacobi(report, launches, &r);
        return r;
    }
    if (launches != 1 || technique_launch(report, 0, &li) != 0) {
        snprintf(r.detail, sizeof(r.detail), "%ld kernel launches; this lab expects exactly one launch of stencil_kernel per sweep", launches);
        return r;
    }
    if (!strcmp(technique, "naive")) {
        technique_naive(&li, n, &r);
    } else if (t < 3 && strcmp(technique, "naive") != 0) {
        snprintf(r.detail, sizeof(r.detail), "the kernel file does not declare its tile: keep '#define IN_TILE_DIM <T>' (T >= 3) from the skeleton");
    } else if (!strcmp(technique, "shared-tile")) {
        technique_shared_tile(&li, t, &r);
    } else if (!strcmp(technique, "z-coarsening")) {
        technique_z_march(&li, t, n, 3, &r);
    } else if (!strcmp(technique, "register-tiling")) {
        technique_z_march(&li, t, n, 1, &r);
    } else {
        r.status = TECHNIQUE_NA;
        snprintf(r.detail, sizeof(r.detail), "no check for technique '%s'", technique);
    }
    return r;
}

int opb_book_model(const char *name, int t, opb_model *m)
{
    memset(m, 0, sizeof(*m));
    m->bound = 13.0 / 4.0;
    if (!strcmp(name, "naive")) {
        m->book = 13.0 / (7.0 * 4.0);
        snprintf(m->formula, sizeof(m->formula), "13 / (7 * 4) = %.2f", m->book);
        return 0;
    }
    if (t < 3)
        return -1;
    double inner = (double)(t - 2) * (t - 2) * (t - 2), tile = (double)t * t * t;
    if (!strcmp(name, "jacobi")) {  // 8 flops a point; loads: the u tile with its halo, and f
        m->book = 8.0 * inner / (4.0 * tile + 4.0 * inner);
        m->bound = 1.0;
        m->halo_fraction = 1.0 - inner / tile;
        m->smem_bytes = 1.0 * t * t * 4.0;
        snprintf(m->formula, sizeof(m->formula), "8 * (T-2)^3 / (4 * T^3 + 4 * (T-2)^3) = %.2f at T=%d (u tile with halo, plus f)", m->book, t);
        return 0;
    }
    m->book = 13.0 * inner / (4.0 * tile);
    m->halo_fraction = 1.0 - inner / tile;
    snprintf(m->formula, sizeof(m->formula), "13 * (T-2)^3 / (4 * T^3) = %.2f at T=%d", m->book, t);
    if (!strcmp(name, "shared-tile"))
        m->smem_bytes = tile * 4.0;
    else if (!strcmp(name, "z-coarsening"))
        m->smem_bytes = 3.0 * t * t * 4.0;
    else if (!strcmp(name, "register-tiling"))
        m->smem_bytes = 1.0 * t * t * 4.0;
    else
        return -1;
    return 0;
}
