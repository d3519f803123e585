// HOSTILE: a kernel of 65 parameters, one more than a launch message carries (the driver would read past the executor's array)
// expect-hint: refused-call
// backends: gpu
// emu-note: the emulation runner launches any number of parameters in its own process (nothing of the kit's to read)
// (a lab 1 submission that probes the grader; the kit's tests check it is refused)
//
// The attack: the executor passes the launch's parameters to the driver as an
// array of at most 64 pointers, and the driver takes the kernel's own count.
// Why it fails: the executor asks the driver for a 65th parameter and refuses
// the kernel when there is one.
#include <stdio.h>
#include "lab.h"

__global__ void stencil_kernel(unsigned long long p0, unsigned long long p1, unsigned long long p2, unsigned long long p3, unsigned long long p4, unsigned long long p5, unsigned long long p6, unsigned long long p7, unsigned long long p8, unsigned long long p9, unsigned long long p10, unsigned long long p11, unsigned long long p12, unsigned long long p13, unsigned long long p14, unsigned long long p15, unsigned long long p16, unsigned long long p17, unsigned long long p18, unsigned long long p19, unsigned long long p20, unsigned long long p21, unsigned long long p22, unsigned long long p23, unsigned long long p24, unsigned long long p25, unsigned long long p26, unsigned long long p27, unsigned long long p28, unsigned long long p29, unsigned long long p30, unsigned long long p31, unsigned long long p32, unsigned long long p33, unsigned long long p34, unsigned long long p35, unsigned long long p36, unsigned long long p37, unsigned long long p38, unsigned long long p39, unsigned long long p40, unsigned long long p41, unsigned long long p42, unsigned long long p43, unsigned long long p44, unsigned long long p45, unsigned long long p46, unsigned long long p47, unsigned long long p48, unsigned long long p49, unsigned long long p50, unsigned long long p51, unsigned long long p52, unsigned long long p53, unsigned long long p54, unsigned long long p55, unsigned long long p56, unsigned long long p57, unsigned long long p58, unsigned long long p59, unsigned long long p60, unsigned long long p61, unsigned long long p62, unsigned long long p63, unsigned long long p64)
{
    unsigned long long *leak = (unsigned long long *)p3;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        leak[0] = p64;  // 8 bytes the driver copied from wherever args[64] pointed
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned long long *leak = NULL, host = 0;
    cudaMalloc((void **)&leak, sizeof(host));
    stencil_kernel<<<1, 32>>>((unsigned long long)d_in, (unsigned long long)d_out, (unsigned long long)N, (unsigned long long)leak, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull);
    cudaDeviceSynchronize();
    cudaMemcpy(&host, leak, sizeof(host), cudaMemcpyDeviceToHost);
    printf("parameter 64 copied from the executor's memory: %016llx\n", host);
    cudaFree(leak);
}
