// grader/emu/include/emu/launch.h — what a `kernel<<<grid, block, shmem,
// stream>>>(args)` launch becomes. The launch translator rewrites it as
//
//     kernel | ::emu::launch_site(__FILE__, __LINE__, "kernel")(grid, block, shmem, stream)(args)
//
// on the same lines: the site and configuration calls build a pending launch
// that holds the arguments, and `|` pairs it with the kernel, converts the
// arguments to the kernel's parameter types once (as CUDA does at a launch)
// and hands the runtime a closure that runs the kernel for one CUDA thread.
#ifndef STENCIL_EMU_LAUNCH_H
#define STENCIL_EMU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "types.h"

namespace emu {

// One launch as the runtime sees it.
struct launch_request {
    const void *kernel;                  // the kernel's address: its identity for attributes
    const char *name;                    // the kernel as written at the launch
    const char *file;                    // the launch's file, as the student wrote it
    int line;                            // and line
    dim3 grid;                           // blocks per axis
    dim3 block;                          // threads per axis
    size_t dynamic_smem;                 // bytes of extern __shared__ memory
    cudaStream_t stream;                 // ignored: work runs in call order
    void (*run_thread)(const void *closure); // runs the kernel for the current CUDA thread
    const void *closure;                 // what run_thread needs: kernel and arguments
    int pointer_count;                   // pointer arguments, listed below
    const void *const *pointers;         // their values
    const int *pointer_positions;        // their positions in the argument list (0 = first)
};

// Runs a launch: checks it, then runs every block; returns the launch error
// (also left for cudaGetLastError), cudaSuccess when the kernel ran or when
// its failure is an execution error reported at the next synchronisation.
cudaError_t launch(const launch_request *r);

// The kernel and its converted arguments.
template <class... P>
struct kernel_closure {
    void (*kernel)(P...);                // the kernel
    std::tuple<std::decay_t<P>...> args; // its arguments, converted once

    // Runs the kernel with a fresh copy of the arguments, for one CUDA thread.
    static void run(const void *self)
    {
        const kernel_closure *c = static_cast<const kernel_closure *>(self);
        std::apply(c->kernel, c->args);
    }
};

// True for pointers to data (not to functions), which must point to device memory.
template <class T>
constexpr bool is_data_pointer = std::is_pointer<T>::value &&
                                 !std::is_function<std::remove_pointer_t<T>>::value;

// Lists the data-pointer arguments of args into values[] and positions[]; returns how many.
template <class Tuple, size_t... I>
int list_pointer_args(const Tuple &args, const void **values, int *positions, std::index_sequence<I...>)
{
    int count = 0;
    auto note = [&](auto value, int position) {
        if constexpr (is_data_pointer<decltype(value)>) {
            values[count] = (const void *)value;
            positions[count] = position;
            count++;
        }
    };
    (note(std::get<I>(args), (int)I), ...);
    (void)note;
    return count;
}

// Converts one argument to its parameter's type, as a call would. An integer
// for a pointer parameter can only be NULL or 0 here (the argument went
// through the pending launch, where NULL lost its null-pointer-constant status).
template <class P, class A>
P convert_argument(A &&arg)
{
    if constexpr (std::is_pointer<P>::value && std::is_integral<std::decay_t<A>>::value) {
        return reinterpret_cast<P>(static_cast<uintptr_t>(arg));
    } else {
        P converted = std::forward<A>(arg);
        return converted;
    }
}

// The kernel's parameters, converted from the pending arguments.
template <class... P, class Tuple, size_t... I>
std::tuple<std::decay_t<P>...> convert_arguments(Tuple &&args, std::index_sequence<I...>)
{
    return std::tuple<std::decay_t<P>...>(convert_argument<std::decay_t<P>>(std::get<I>(std::move(args)))...);
}

// Converts the pending arguments to the kernel's parameter types and launches;
// returns the launch's error (cudaSuccess when it ran).
template <class... P, class... A>
cudaError_t launch_with(void (*kernel)(P...), const struct launch_config &config, std::tuple<A...> &&args);

// A launch's site: where it is written, and what is launched.
struct launch_site {
    const char *file;                    // the student's file
    int line;                            // line of the <<<
    const char *name;                    // the kernel expression as written

    // The launch configuration, with CUDA's defaults.
    struct launch_config operator()(dim3 grid, dim3 block, size_t dynamic_smem = 0,
                                     cudaStream_t stream = 0) const;
};

// A pending launch: its arguments, kept until `|` names the kernel.
template <class... A>
struct pending_launch;

// A launch's site and configuration.
struct launch_config {
    launch_site site;                    // where
    dim3 grid;                           // blocks per axis
    dim3 block;                          // threads per axis
    size_t dynamic_smem;                 // bytes of extern __shared__ memory
    cudaStream_t stream;                 // kept for the record

    // Takes the launch's arguments (by value, decayed, as kernel parameters are).
    template <class... A>
    pending_launch<std::decay_t<A>...> operator()(A &&...args) const
    {
        return pending_launch<std::decay_t<A>...>{*this, std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)};
    }
};

// The launch configuration, with CUDA's defaults.
inline launch_config launch_site::operator()(dim3 grid, dim3 block, size_t dynamic_smem,
                                             cudaStream_t stream) const
{
    return launch_config{*this, grid, block, dynamic_smem, stream};
}

template <class... A>
struct pending_launch {
    launch_config config;                // site and configuration
    std::tuple<A...> args;               // the arguments as given
};

// Defined here: converts, lists the pointer arguments, hands the runtime the launch.
template <class... P, class... A>
cudaError_t launch_with(void (*kernel)(P...), const launch_config &config, std::tuple<A...> &&args)
{
    static_assert(sizeof...(P) == sizeof...(A),
                  "kernel launched with a different number of arguments than it has parameters");
    if constexpr (sizeof...(P) == sizeof...(A)) {
        kernel_closure<P...> closure{kernel, convert_arguments<P...>(std::move(args), std::index_sequence_for<P...>{})};
        const void *values[sizeof...(P) + 1];
        int positions[sizeof...(P) + 1];
        int count = list_pointer_args(closure.args, values, positions, std::index_sequence_for<P...>{});
        launch_request r = {(const void *)kernel, config.site.name, config.site.file, config.site.line,
                            config.grid, config.block, config.dynamic_smem, config.stream,
                            &kernel_closure<P...>::run, &closure, count, values, positions};
        return launch(&r);
    }
    return cudaErrorInvalidValue;
}

// Non-deduced context: lets the argument types alone pick a template kernel's instance.
template <class T>
struct same_type {
    using type = T;                      // T itself
};

// `kernel | pending`: a kernel whose parameter types are known (a function,
// or a template with its arguments given).
template <class... P, class... A>
inline void operator|(void (*kernel)(P...), pending_launch<A...> &&pending)
{
    launch_with(kernel, pending.config, std::move(pending.args));
}

// `kernel | pending` for a template kernel launched without template
// arguments: they are deduced from the argument types, as a call would.
template <class... A>
inline void operator|(typename same_type<void (*)(A...)>::type kernel, pending_launch<A...> &&pending)
{
    launch_with(kernel, pending.config, std::move(pending.args));
}

// The kernel expression of the cudaLaunchKernel call about to run, as the
// launch translator saw it (it wraps the call), or NULL.
extern const char *pending_launch_name;

// Sets pending_launch_name; 0.
inline int next_launch_name(const char *name)
{
    pending_launch_name = name;
    return 0;
}

// The arguments a cudaLaunchKernel call points to, read as the kernel's parameter types.
template <class... P, size_t... I>
std::tuple<std::decay_t<P>...> arguments_at(void **args, std::index_sequence<I...>)
{
    return std::tuple<std::decay_t<P>...>(*static_cast<std::decay_t<P> *>(args[I])...);
}

// Launches kernel as cudaLaunchKernel does, through the same path as <<<...>>>.
template <class... P>
cudaError_t launch_kernel_call(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t dynamic_smem,
                               cudaStream_t stream, const char *file, int line)
{
    if (sizeof...(P) > 0 && !args)
        return cudaErrorInvalidValue;
    const char *name = pending_launch_name;  // the kernel as written in the call, when the translator saw it
    pending_launch_name = nullptr;
    launch_config config{launch_site{file, line, name}, grid, block, dynamic_smem, stream};
    return launch_with(kernel, config, arguments_at<P...>(args, std::index_sequence_for<P...>{}));
}

// The kernel given as a void pointer: its parameters cannot be known here.
cudaError_t launch_kernel_untyped(const void *kernel, const char *call, const char *file, int line);

} // namespace emu

// cudaLaunchKernel(kernel, grid, block, args, shmem, stream), declared as CUDA
// declares it: args[i] points to the i-th argument. The kernel is the
// function itself (the launch translator drops a cast to void pointer written
// in front of it, so cudaLaunchKernel((const void *)kernel, ...) is one too,
// and names the launch after the kernel as written); a kernel left a void
// pointer (kept in a variable, say) is refused with the reason.
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args,
                                           size_t dynamic_smem = 0, cudaStream_t stream = 0,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return ::emu::launch_kernel_call(kernel, grid, block, args, dynamic_smem, stream, file, line);
}

// The same, as CUDA's header declares it: the kernel's type given (cudaLaunchKernel<void(float *, int)>),
// or a void pointer.
template <class T>
static inline cudaError_t cudaLaunchKernel(const T *kernel, dim3 grid, dim3 block, void **args,
                                           size_t dynamic_smem = 0, cudaStream_t stream = 0,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if constexpr (std::is_function<T>::value) {
        return ::emu::launch_kernel_call(kernel, grid, block, args, dynamic_smem, stream, file, line);
    } else {
        (void)grid, (void)block, (void)args, (void)dynamic_smem, (void)stream;
        ::emu::pending_launch_name = nullptr;
        return ::emu::launch_kernel_untyped((const void *)kernel, "cudaLaunchKernel", file, line);
    }
}

// A cooperative launch (grid-wide synchronisation) is refused, as on a GPU.
template <class K>
static inline cudaError_t cudaLaunchCooperativeKernel(K kernel, dim3 grid, dim3 block, void **args,
                                                      size_t dynamic_smem = 0, cudaStream_t stream = 0,
                                                      const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    (void)grid, (void)block, (void)args, (void)dynamic_smem, (void)stream;
    return ::emu::launch_kernel_untyped((const void *)kernel, "cudaLaunchCooperativeKernel", file, line);
}

#endif // STENCIL_EMU_LAUNCH_H
