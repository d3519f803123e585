// tests/emu/pipeline_check.cpp — runs an emulated lab-1 runner the way the
// judge does and checks what it hands back: report.txt says status=ok, out.bin
// holds guard | grid | guard with the guards intact, every interior cell the
// seven-point stencil of the input (within lab 1's tolerance), every boundary
// cell its input; in_after.bin is the input untouched. A host program (not
// emulated): it only starts the runner and reads files.
//
//   pipeline_check RUNNER WORKDIR      prints TAP lines; exits 1 when one fails
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "protocol.h"

static uint64_t random_state;  // xorshift state

// A random float in [-1, 1), never zero.
static float random_float(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    float f = (float)((random_state >> 40) * (2.0 / 16777216.0) - 1.0);
    return f == 0.0f ? 0.25f : f;
}

// Reads path as floats; an empty vector when it cannot.
static std::vector<float> read_floats(const std::string &path)
{
    std::vector<float> v;
    FILE *f = fopen(path.c_str(), "rb");
    float x;
    while (f && fread(&x, sizeof(x), 1, f) == 1)
        v.push_back(x);
    if (f)
        fclose(f);
    return v;
}

// The value of key in dir/report.txt, or "" when absent.
static std::string report_value(const std::string &dir, const char *key)
{
    FILE *f = fopen((dir + "/" CASE_REPORT).c_str(), "r");
    char line[2048];
    std::string value;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, key, n) && line[n] == '=') {
            value = line + n + 1;
            value.erase(value.find_last_not_of("\r\n") + 1);
        }
    if (f)
        fclose(f);
    return value;
}

// Runs the runner on dir under order; returns its exit status (-1 on a signal).
static int run_runner(const char *runner, const std::string &dir, unsigned int n, const float c[7], const char *order)
{
    char n_text[16], coef[256];
    snprintf(n_text, sizeof(n_text), "%u", n);
    snprintf(coef, sizeof(coef), "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("STENCIL_EMU_ORDER", order, 1);
        setenv("STENCIL_EMU_SEED", "12345", 1);
        execl(runner, runner, "--outdir", dir.c_str(), "--n", n_text, "--coef", coef, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The first difference between the runner's output and the stencil of in,
// as a message; "" when there is none.
static std::string compare_output(const std::vector<float> &in, const std::vector<float> &out, size_t guard,
                                  unsigned int n, const float c[7])
{
    char msg[256];
    size_t cells = (size_t)n * n * n;
    if (out.size() != cells + 2 * guard)
        return "out.bin holds " + std::to_string(out.size()) + " floats";
    for (size_t g = 0; g < guard; g++) {
        uint32_t a, b;
        memcpy(&a, &out[g], 4);
        memcpy(&b, &out[guard + cells + g], 4);
        if (a != GUARD_BITS || b != GUARD_BITS)
            return "a guard cell was overwritten";
    }
    const float *o = &out[guard];
    for (unsigned int i = 0; i < n; i++)
        for (unsigned int j = 0; j < n; j++)
            for (unsigned int k = 0; k < n; k++) {
                size_t at = ((size_t)i * n + j) * n + k;
                int interior = i > 0 && j > 0 && k > 0 && i < n - 1 && j < n - 1 && k < n - 1;
                if (!interior) {
                    if (memcmp(&o[at], &in[at], 4) != 0) {
                        snprintf(msg, sizeof(msg), "boundary cell (%u,%u,%u) = %g, input %g", i, j, k, o[at], in[at]);
                        return msg;
                    }
                    continue;
                }
                const float x[7] = {in[at], in[at - 1], in[at + 1], in[at - n], in[at + n], in[at - (size_t)n * n],
                                    in[at + (size_t)n * n]};
                double expected = 0, scale = 0;
                for (int t = 0; t < 7; t++) {
                    expected += (double)c[t] * x[t];
                    scale += fabs((double)c[t] * x[t]);
                }
                if (!(fabs(o[at] - expected) <= 1e-6 * scale + 1e-9)) {
                    snprintf(msg, sizeof(msg), "cell (%u,%u,%u) = %.9g, expected %.9g", i, j, k, o[at], expected);
                    return msg;
                }
            }
    return "";
}

// Runs one case; prints its TAP line; returns 1 if it passed.
static int check_case(const char *runner, const char *work, int number, unsigned int n, const char *order)
{
    std::string dir = std::string(work) + "/case-" + std::to_string(n) + "-" + order;
    size_t cells = (size_t)n * n * n;
    std::vector<float> in(cells);
    float c[7];
    for (float &v : in)
        v = random_float();
    for (float &v : c)
        v = random_float();
    mkdir(dir.c_str(), 0755);
    FILE *f = fopen((dir + "/" CASE_INPUT).c_str(), "wb");
    if (!f || fwrite(in.data(), 4, cells, f) != cells || fclose(f) != 0) {
        printf("not ok %d - lab 1 N=%u %s\n    # cannot write %s: %s\n", number, n, order, dir.c_str(), strerror(errno));
        return 0;
    }
    int status = run_runner(runner, dir, n, c, order);
    std::string why;
    if (status != 0)
        why = "the runner exited with " + std::to_string(status) + ": " + report_value(dir, "error");
    else if (report_value(dir, "status") != "ok" || report_value(dir, "backend") != "emu")
        why = "report.txt lacks status=ok or backend=emu";
    if (why.empty()) {
        size_t guard = strtoull(report_value(dir, "guard_cells").c_str(), NULL, 10);
        why = compare_output(in, read_floats(dir + "/" CASE_OUTPUT), guard, n, c);
        std::vector<float> after = read_floats(dir + "/" CASE_INPUT_AFTER);
        if (why.empty() && (after.size() != cells + 2 * guard || memcmp(&after[guard], in.data(), cells * 4) != 0))
            why = "in_after.bin differs from the input";
    }
    printf("%s %d - lab 1 solution, N=%u, %s order\n", why.empty() ? "ok" : "not ok", number, n, order);
    if (!why.empty())
        printf("    # %s\n", why.c_str());
    return why.empty();
}

// Checks three cases; exits 1 when one failed, 2 on usage errors.
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pipeline_check RUNNER WORKDIR\n");
        return 2;
    }
    const char *text = getenv("EMU_TEST_SEED");
    uint64_t seed = text ? strtoull(text, NULL, 0) : (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    random_state = seed ? seed : 1;
    printf("# pipeline: seed %llu (EMU_TEST_SEED=%llu replays it)\n1..3\n", (unsigned long long)seed,
           (unsigned long long)seed);
    int passed = check_case(argv[1], argv[2], 1, 16, "forward");
    passed += check_case(argv[1], argv[2], 2, 16, "shuffle");
    passed += check_case(argv[1], argv[2], 3, 33, "reverse");
    return passed == 3 ? 0 : 1;
}
