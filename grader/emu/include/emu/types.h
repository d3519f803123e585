// grader/emu/include/emu/types.h — the CUDA runtime's types for the CPU
// emulation backend: error codes, vector types, dim3, the structs the host API
// fills in. Values and names follow CUDA's own headers so code that compares
// or prints them behaves the same on both backends.
#ifndef STENCIL_EMU_TYPES_H
#define STENCIL_EMU_TYPES_H

#include <stddef.h>
#include <stdint.h>

// The nominal device the emulation reports (an H100's figures): a launch
// sized from it is as large as on the GPU the labs are graded on.
#define EMU_DEVICE_SMS 132               // multiprocessors
#define EMU_DEVICE_THREADS_PER_SM 2048   // resident threads a multiprocessor
#define EMU_DEVICE_BLOCKS_PER_SM 32      // resident blocks a multiprocessor

// ---------------------------------------------------------------------------
// Errors (the subset a kit, a lab or a student's harness meets; same values)
// ---------------------------------------------------------------------------

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

// cudaFuncAttributePreferredSharedMemoryCarveout's named values (a percentage otherwise).
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault = -1,
    cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1 = 0
};

enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrMemoryPoolsSupported = 115
};

enum cudaLimit {
    cudaLimitStackSize = 0,
    cudaLimitPrintfFifoSize = 1,
    cudaLimitMallocHeapSize = 2
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01

typedef struct emu_stream *cudaStream_t;  // streams: launches and copies run in call order
#define cudaStreamLegacy ((cudaStream_t)0x1)     // the default stream by its names (never dereferenced:
#define cudaStreamPerThread ((cudaStream_t)0x2)  // work runs in call order whatever the stream)
typedef struct emu_event *cudaEvent_t;    // events: host timestamps

// ---------------------------------------------------------------------------
// Vector types (alignment as CUDA's, so structs of them have the same layout)
// ---------------------------------------------------------------------------

struct char1 { signed char x; };
struct uchar1 { unsigned char x; };
struct __attribute__((aligned(2))) char2 { signed char x, y; };
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
struct char3 { signed char x, y, z; };
struct uchar3 { unsigned char x, y, z; };
struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
struct short1 { short x; };
struct __attribute__((aligned(4))) short2 { short x, y; };
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };
struct int1 { int x; };
struct uint1 { unsigned int x; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct int3 { int x, y, z; };
struct uint3 { unsigned int x, y, z; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
struct long1 { long x; };
struct __attribute__((aligned(16))) long2 { long x, y; };
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
struct float1 { float x; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct double1 { double x; };
struct __attribute__((aligned(16))) double2 { double x, y; };
struct double3 { double x, y, z; };
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };

// A launch dimension: unset components are 1.
struct dim3 {
    unsigned int x, y, z;  // extent along x (fastest), y, z
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Builds a vector value from its components, like CUDA's make_* functions.
#define EMU_MAKE_VECTOR2(T, E) \
    static inline T make_##T(E x, E y) { T v; v.x = x; v.y = y; return v; }
#define EMU_MAKE_VECTOR3(T, E) \
    static inline T make_##T(E x, E y, E z) { T v; v.x = x; v.y = y; v.z = z; return v; }
#define EMU_MAKE_VECTOR4(T, E) \
    static inline T make_##T(E x, E y, E z, E w) { T v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
EMU_MAKE_VECTOR2(char2, signed char)
EMU_MAKE_VECTOR2(uchar2, unsigned char)
EMU_MAKE_VECTOR4(char4, signed char)
EMU_MAKE_VECTOR4(uchar4, unsigned char)
EMU_MAKE_VECTOR2(short2, short)
EMU_MAKE_VECTOR4(short4, short)
EMU_MAKE_VECTOR2(int2, int)
EMU_MAKE_VECTOR3(int3, int)
EMU_MAKE_VECTOR4(int4, int)
EMU_MAKE_VECTOR2(uint2, unsigned int)
EMU_MAKE_VECTOR3(uint3, unsigned int)
EMU_MAKE_VECTOR4(uint4, unsigned int)
EMU_MAKE_VECTOR2(longlong2, long long)
EMU_MAKE_VECTOR2(float2, float)
EMU_MAKE_VECTOR3(float3, float)
EMU_MAKE_VECTOR4(float4, float)
EMU_MAKE_VECTOR2(double2, double)
EMU_MAKE_VECTOR3(double3, double)
EMU_MAKE_VECTOR4(double4, double)
#undef EMU_MAKE_VECTOR2
#undef EMU_MAKE_VECTOR3
#undef EMU_MAKE_VECTOR4

// ---------------------------------------------------------------------------
// Structs the host API fills in (field names and order as CUDA 13's; the
// fields CUDA 12 had and 13 dropped are kept so older code still compiles)
// ---------------------------------------------------------------------------

struct cudaUUID_st { char bytes[16]; };  // device UUID
typedef struct cudaUUID_st cudaUUID_t;

struct cudaDeviceProp {
    char name[256];                      // "CPU emulation"
    cudaUUID_t uuid;                     // all zero
    char luid[8];                        // unused
    unsigned int luidDeviceNodeMask;     // unused
    size_t totalGlobalMem;               // bytes cudaMalloc may hand out in all
    size_t sharedMemPerBlock;            // 48 KiB, the default limit per block
    int regsPerBlock;                    // as a current GPU (no meaning here)
    int warpSize;                        // 32
    size_t memPitch;                     // largest pitch of a pitched copy
    int maxThreadsPerBlock;              // 1024
    int maxThreadsDim[3];                // 1024, 1024, 64
    int maxGridSize[3];                  // 2^31-1, 65535, 65535
    int clockRate;                       // kHz (dropped in CUDA 13; kept for older code)
    size_t totalConstMem;                // 64 KiB
    int major;                           // compute capability the limits follow
    int minor;                           // (those of a 9.0 device)
    size_t textureAlignment;             // unused
    size_t texturePitchAlignment;        // unused
    int deviceOverlap;                   // 0 (dropped in CUDA 13)
    int multiProcessorCount;             // 132, an H100's (blocks still run one after another)
    int kernelExecTimeoutEnabled;        // 0 (dropped in CUDA 13)
    int integrated;                      // 1: "device" memory is host memory
    int canMapHostMemory;                // 1
    int computeMode;                     // 0, default (dropped in CUDA 13)
    int concurrentKernels;               // 0: launches run one at a time
    int ECCEnabled;                      // 0
    int pciBusID;                        // 0
    int pciDeviceID;                     // 0
    int pciDomainID;                     // 0
    int tccDriver;                       // 0
    int asyncEngineCount;                // 0: copies are synchronous
    int unifiedAddressing;               // 1
    int memoryClockRate;                 // kHz (dropped in CUDA 13)
    int memoryBusWidth;                  // bits, nominal
    int l2CacheSize;                     // bytes, nominal (4 MiB)
    int persistingL2CacheMaxSize;        // 0
    int maxThreadsPerMultiProcessor;     // 2048
    int streamPrioritiesSupported;       // 0
    int globalL1CacheSupported;          // 1
    int localL1CacheSupported;           // 1
    size_t sharedMemPerMultiprocessor;   // 228 KiB
    int regsPerMultiprocessor;           // 65536
    int managedMemory;                   // 1
    int isMultiGpuBoard;                 // 0
    int multiGpuBoardGroupID;            // 0
    int hostNativeAtomicSupported;       // 1
    int pageableMemoryAccess;            // 0
    int concurrentManagedAccess;         // 0
    int computePreemptionSupported;      // 0
    int canUseHostPointerForRegisteredMem; // 0
    int cooperativeLaunch;               // 0
    size_t sharedMemPerBlockOptin;       // 227 KiB, with cudaFuncSetAttribute
    int pageableMemoryAccessUsesHostPageTables; // 0
    int directManagedMemAccessFromHost;  // 1
    int maxBlocksPerMultiProcessor;      // 32
    int accessPolicyMaxWindowSize;       // 0
    size_t reservedSharedMemPerBlock;    // 1 KiB
    int hostRegisterSupported;           // 0
    int memoryPoolsSupported;            // 0
    int clusterLaunch;                   // 0
    int unifiedFunctionPointers;         // 0
    int reserved[64];                    // room, zero
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;              // static shared memory (known once the kernel has run)
    size_t constSizeBytes;               // 0
    size_t localSizeBytes;               // 0
    int maxThreadsPerBlock;              // 1024
    int numRegs;                         // 32: not modelled (a typical stencil kernel's)
    int ptxVersion;                      // 90
    int binaryVersion;                   // 90
    int cacheModeCA;                     // 0
    int maxDynamicSharedSizeBytes;       // the limit cudaFuncSetAttribute set (48 KiB by default)
    int preferredShmemCarveout;          // -1 unless set
    int reserved[16];                    // zero
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;            // what the pointer points into
    int device;                          // 0
    void *devicePointer;                 // the pointer, when the device may use it
    void *hostPointer;                   // the pointer, when the host may use it
};

#endif // STENCIL_EMU_TYPES_H
