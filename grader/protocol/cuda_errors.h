// grader/protocol/cuda_errors.h — the CUDA error codes a student's program
// may meet, with the name and text cudaGetErrorName and cudaGetErrorString
// answer for each: one table for both runtimes a program links (the GPU
// backend's shim, grader/shim/, and the emulation runtime, grader/emu/), so
// a program reads the same words on either backend. Include it after the
// runtime's own header (the real cuda_runtime_api.h or the emulator's), whose
// cudaError_t enumerators it names.
#ifndef STENCIL_CUDA_ERRORS_H
#define STENCIL_CUDA_ERRORS_H

#include <stddef.h>

// Each code with CUDA's text for it; a refusal of the kit's says so.
#define CUDA_ERROR_TEXTS(X)                                                                  \
    X(cudaSuccess, "no error")                                                               \
    X(cudaErrorInvalidValue, "invalid argument")                                             \
    X(cudaErrorMemoryAllocation, "out of memory")                                            \
    X(cudaErrorInitializationError, "initialization error")                                  \
    X(cudaErrorInvalidConfiguration, "invalid configuration argument")                       \
    X(cudaErrorInvalidSymbol, "invalid device symbol")                                       \
    X(cudaErrorInvalidDevicePointer, "invalid device pointer")                               \
    X(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                  \
    X(cudaErrorMissingConfiguration, "__global__ function call is not configured")           \
    X(cudaErrorInvalidDeviceFunction, "invalid device function")                             \
    X(cudaErrorNoDevice, "no CUDA-capable device is detected")                               \
    X(cudaErrorInvalidDevice, "invalid device ordinal")                                      \
    X(cudaErrorInvalidResourceHandle, "invalid resource handle")                             \
    X(cudaErrorNotReady, "device not ready")                                                 \
    X(cudaErrorIllegalAddress, "an illegal memory access was encountered")                   \
    X(cudaErrorLaunchOutOfResources, "too many resources requested for launch")              \
    X(cudaErrorLaunchTimeout, "the launch timed out and was terminated")                     \
    X(cudaErrorAssert, "device-side assert triggered")                                       \
    X(cudaErrorIllegalInstruction, "an illegal instruction was encountered")                 \
    X(cudaErrorMisalignedAddress, "misaligned address")                                      \
    X(cudaErrorLaunchFailure, "unspecified launch failure")                                  \
    X(cudaErrorNotPermitted, "operation not permitted (the kit does not allow this call in a lab)") \
    X(cudaErrorNotSupported, "operation not supported")                                      \
    X(cudaErrorUnknown, "unknown error")

// One error code: its enumerator's name and its text.
typedef struct cuda_error_text {
    cudaError_t code;  // the value
    const char *name;  // its enumerator, "cudaErrorInvalidValue" (cudaGetErrorName)
    const char *text;  // CUDA's words for it, "invalid argument" (cudaGetErrorString)
} cuda_error_text;

#define CUDA_ERROR_ROW(code, text) {code, #code, text},

// The table's entry of err, or NULL for a code it does not hold (each
// runtime answers those in its own words).
static inline const cuda_error_text *cuda_error_lookup(cudaError_t err)
{
    static const cuda_error_text texts[] = {CUDA_ERROR_TEXTS(CUDA_ERROR_ROW)};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (texts[i].code == err)
            return &texts[i];
    return NULL;
}

#undef CUDA_ERROR_ROW

#endif // STENCIL_CUDA_ERRORS_H
