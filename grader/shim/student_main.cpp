// grader/shim/student_main.cpp — main() of a student's program: waits for the
// executor's calls and makes them, one at a time.
//
// Built once per kind of lab and interface (STUDENT_KIND_JACOBI for labs 5
// and 9, with STUDENT_UPDATE_HEAT2D for lab 10's heat_solve;
// for the sweep labs STUDENT_INTERFACE_GRID for the grid interface,
// STUDENT_INTERFACE_IMAGE for the image one (lab 0's convolution), the cube
// one otherwise) and linked with the student's kernel file and the shim. A kernel
// file that defines its own main() does not link. Whatever this program
// answers is a claim: the executor and the judge verify the grids themselves.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"

#if defined(STUDENT_KIND_JACOBI) && defined(STUDENT_UPDATE_HEAT2D)
#include "heat2d.h"
#elif defined(STUDENT_KIND_JACOBI)
#include "jacobi.h"
#elif defined(STUDENT_INTERFACE_IMAGE)
// conv.h's prototype (conv.h itself defines __constant__ F: it belongs to the kernel file alone).
void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r);
#elif defined(STUDENT_INTERFACE_GRID)
// grid.h's prototype (grid.h itself defines __constant__ variables: it belongs to the kernel file alone).
void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz);
#else
// lab.h's prototype (lab.h itself defines __constant__ variables: it belongs to the kernel file alone).
void launch_stencil(float *d_in, float *d_out, unsigned int N);
#endif

extern "C" void shim_ready(void);
extern "C" uint32_t shim_wait(void *payload, size_t cap);
extern "C" void shim_return(const void *payload, size_t len);

#if defined(STUDENT_KIND_JACOBI) && defined(STUDENT_UPDATE_HEAT2D)
// Calls heat_solve with the call's arguments and sends back which buffer it
// named (the steps are the call's: the grids say whether they were done).
static void student_call(const char *payload)
{
    uint64_t ptr[3];
    wire_jacobi_problem w;
    memcpy(ptr, payload, sizeof(ptr));
    memcpy(&w, payload + sizeof(ptr), sizeof(w));
    heat_problem p = {w.nx, w.ny, w.pitch, w.rate, w.max_iters};
    struct {
        int32_t result, iters;
        float residual;
    } answer = {0, w.max_iters, -1.0f};
    answer.result = heat_solve((float *)(uintptr_t)ptr[0], (float *)(uintptr_t)ptr[1], &p);
    shim_return(&answer, sizeof(answer));
}
#elif defined(STUDENT_KIND_JACOBI)
// Calls jacobi_solve with the call's arguments and sends back its three answers.
static void student_call(const char *payload)
{
    uint64_t ptr[3];
    wire_jacobi_problem w;
    memcpy(ptr, payload, sizeof(ptr));
    memcpy(&w, payload + sizeof(ptr), sizeof(w));
    jacobi_problem p = {w.nx, w.ny, w.nz, w.h, w.bc, w.max_iters, w.check_every, w.tol,
                        (double *)(uintptr_t)w.d_scratch};
    struct {
        int32_t result, iters;
        float residual;
    } answer = {0, -1, -2.0f};
    int iters = -1;
    float residual = -2.0f;
    answer.result = jacobi_solve((float *)(uintptr_t)ptr[0], (float *)(uintptr_t)ptr[1],
                                 (const float *)(uintptr_t)ptr[2], &p, &iters, &residual);
    answer.iters = iters;
    answer.residual = residual;
    shim_return(&answer, sizeof(answer));
}
#else
// Calls the sweep lab's host function (its interface's) with the call's arguments.
static void student_call(const char *payload)
{
    wire_sweep_call w;
    memcpy(&w, payload, sizeof(w));
#ifdef STUDENT_INTERFACE_GRID
    launch_sweep((float *)(uintptr_t)w.d_in, (float *)(uintptr_t)w.d_out, w.nx, w.ny, w.nz);
#elif defined(STUDENT_INTERFACE_IMAGE)
    launch_convolution((const float *)(uintptr_t)w.d_in, (float *)(uintptr_t)w.d_out, w.nx, w.ny, (int)w.radius);
#else
    launch_stencil((float *)(uintptr_t)w.d_in, (float *)(uintptr_t)w.d_out, w.nx);
#endif
    shim_return(NULL, 0);
}
#endif

int main(void)
{
    char payload[256];
    shim_ready();
    for (;;) {
        uint32_t op = shim_wait(payload, sizeof(payload));
        if (op != WIRE_CALL)
            _exit(0);  // WIRE_EXIT, or anything else: this program's work is over
        student_call(payload);
    }
}
