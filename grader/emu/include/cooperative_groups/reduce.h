// grader/emu/include/cooperative_groups/reduce.h — cooperative_groups::reduce
// under CPU emulation, for the block's tiles (thread_block_tile<N>): every
// thread of the tile gets the tile's reduction of its values under op, by a
// butterfly of shfl_xor, so a missing lane is named at the student's line as
// any shuffle's is. The operators plus, less, greater, bit_and, bit_or and
// bit_xor are CUDA's.
#ifndef STENCIL_EMU_COOPERATIVE_GROUPS_REDUCE_H
#define STENCIL_EMU_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
    T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T>
struct less {  // the smaller
    T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger
    T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(const T &a, const T &b) const { return a ^ b; }
};

template <unsigned int Size, class T, class Op>
static inline T reduce(const thread_block_tile<Size> &tile, T value, Op op, const char *file = __builtin_FILE(),
                       int line = __builtin_LINE())
{
    for (unsigned int mask = Size / 2; mask > 0; mask /= 2)
        value = op(value, tile.shfl_xor(value, (int)mask, file, line));
    return value;
}

}  // namespace cooperative_groups

#endif  // STENCIL_EMU_COOPERATIVE_GROUPS_REDUCE_H
