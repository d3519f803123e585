// grader/emu/include/cooperative_groups.h — CUDA's cooperative groups under
// CPU emulation, the block-level part: the thread block (sync, ranks, its
// index and size) and its tiles of 1 to 32 threads made by tiled_partition<N>
// (sync, shuffles, votes, ranks). Each call goes to the backend's own barrier
// and warp operations with the caller's file and line, so a barrier mistake
// is named at the student's line. The grid group exists for its ranks, but
// its sync() stops the kernel with an execution error: grid-wide
// synchronisation needs a cooperative launch, which neither the emulator nor
// the kit's GPU runner offers.
#ifndef STENCIL_EMU_COOPERATIVE_GROUPS_H
#define STENCIL_EMU_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cooperative_groups {

// The block's threads, ranked x fastest as on a GPU.
class thread_block {
public:
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncthreads(file, line); }
    unsigned long long thread_rank() const
    {
        return ((unsigned long long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
    unsigned long long size() const { return (unsigned long long)blockDim.x * blockDim.y * blockDim.z; }
    unsigned long long num_threads() const { return size(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

static inline thread_block this_thread_block(void) { return thread_block(); }

static inline void sync(const thread_block &block, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    block.sync(file, line);
}

// Size consecutive threads of a block's warp (Size a power of two up to 32).
template <unsigned int Size>
class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "a tile is 1, 2, 4, 8, 16 or 32 threads");

    // The lanes of this tile within its warp.
    static unsigned int lanes(void)
    {
        unsigned int lane = (unsigned int)(thread_block().thread_rank() & 31u);
        unsigned int bits = Size == 32 ? 0xffffffffu : (1u << Size) - 1u;
        return bits << (lane / Size * Size);
    }

public:
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncwarp(lanes(), file, line); }
    unsigned long long thread_rank() const { return thread_block().thread_rank() % Size; }
    unsigned long long size() const { return Size; }
    unsigned long long num_threads() const { return Size; }
    unsigned long long meta_group_rank() const { return thread_block().thread_rank() / Size; }
    unsigned long long meta_group_size() const { return (thread_block().size() + Size - 1) / Size; }

    template <class T>
    T shfl(T var, int src_rank, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __shfl_sync(lanes(), var, src_rank, (int)Size, file, line);
    }
    template <class T>
    T shfl_up(T var, unsigned int delta, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __shfl_up_sync(lanes(), var, delta, (int)Size, file, line);
    }
    template <class T>
    T shfl_down(T var, unsigned int delta, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __shfl_down_sync(lanes(), var, delta, (int)Size, file, line);
    }
    template <class T>
    T shfl_xor(T var, int lane_mask, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __shfl_xor_sync(lanes(), var, lane_mask, (int)Size, file, line);
    }
    int any(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __any_sync(lanes(), predicate, file, line);
    }
    int all(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __all_sync(lanes(), predicate, file, line);
    }
    // Bit r set when the thread of rank r in the tile brought a non-zero predicate.
    unsigned int ballot(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        unsigned int shift = (unsigned int)(thread_block().thread_rank() & 31u) / Size * Size;
        return __ballot_sync(lanes(), predicate, file, line) >> shift;
    }
};

template <unsigned int Size>
static inline thread_block_tile<Size> tiled_partition(const thread_block &)
{
    return thread_block_tile<Size>();
}

template <unsigned int Size>
static inline void sync(const thread_block_tile<Size> &tile, const char *file = __builtin_FILE(),
                        int line = __builtin_LINE())
{
    tile.sync(file, line);
}

// The whole grid: its ranks work; its sync() is not emulated (see the top).
class grid_group {
public:
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        emu_trap("grid.sync() (grid-wide synchronisation needs a cooperative launch, which the kit does not offer: "
                 "launch once per step that needs the whole grid in step)", file, line);
    }
    unsigned long long size() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * thread_block().size();
    }
    unsigned long long thread_rank() const
    {
        unsigned long long block = ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        return block * thread_block().size() + thread_block().thread_rank();
    }
    unsigned long long num_threads() const { return size(); }
    bool is_valid() const { return false; }  // not launched cooperatively
};

static inline grid_group this_grid(void) { return grid_group(); }

}  // namespace cooperative_groups

#endif  // STENCIL_EMU_COOPERATIVE_GROUPS_H
