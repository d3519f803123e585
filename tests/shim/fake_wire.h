// tests/shim/fake_wire.h — what tests/shim/fake_executor.c answers and
// tests/shim/student_calls.cpp expects, defined once for both sides: the
// fake module's names and sizes, and the answers, each derived from the
// call's size N (which the executor draws from its seed).
#ifndef STENCIL_FAKE_WIRE_H
#define STENCIL_FAKE_WIRE_H

#include <stdint.h>

#define FAKE_FATBIN_BYTES   48                       // the fake image after its 16-byte header
#define FAKE_KERNEL_NAME    "_Z11fake_kernelPfS_j"   // the registered kernel
#define FAKE_SYMBOL_NAME    "c0"                     // the registered __constant__ array
#define FAKE_SYMBOL_FLOATS  7                        // its floats
#define FAKE_SYMBOL_ADDRESS 0xd0000000u              // its device address
#define FAKE_DEVICE_NAME    "fake executor"          // cudaGetDeviceProperties' name
#define FAKE_BLOCK          128                      // threads a block of every launch
#define FAKE_OCCUPANCY      6                        // blocks an SM, for any kernel
#define FAKE_MAX_BYTES      4096                     // largest copy the student side makes
#define FAKE_STICKY_ERROR   719                      // cudaErrorLaunchFailure: what cudaPeekAtLastError answers
#define FAKE_NOT_A_KERNEL   98                       // cudaErrorInvalidDeviceFunction: parameters of an unknown handle

// The device pointer cudaMalloc(bytes) gets.
static inline uint64_t fake_malloc_answer(uint64_t bytes) { return 0x700000000000ull + bytes * 16; }

// Byte i of the data of call size n (host-to-device copies carry n's, device-to-host answers n + 1's).
static inline uint8_t fake_pattern_byte(unsigned n, uint64_t i) { return (uint8_t)(i * 131u + n * 7u); }

// The value of device attribute a.
static inline int fake_attribute(int a) { return a * 3 + 1; }

#endif // STENCIL_FAKE_WIRE_H
