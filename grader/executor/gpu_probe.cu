// grader/executor/gpu_probe.cu — is there a usable GPU? Reports the device as the
// runners do (device=, sm_count=, ...) and exits 0, or 77 with CUDA's reason.
//
//   gpu_probe --outdir DIR      writes DIR/report.txt
#include "runner_common.h"

int main(int argc, char **argv)
{
    char path[4096];
    if (argc != 3 || strcmp(argv[1], "--outdir") != 0) {
        fprintf(stderr, "usage: gpu_probe --outdir DIR\n");
        return RUNNER_USAGE;
    }
    snprintf(path, sizeof(path), "%s/%s", argv[2], CASE_REPORT);
    runner_report_file = fopen(path, "w");
    if (!runner_report_file) {
        fprintf(stderr, "gpu_probe: cannot write %s: %s\n", path, strerror(errno));
        return RUNNER_USAGE;
    }
    runner_report("backend", "gpu");
    runner_open_device();
    runner_report("status", "ok");
    fclose(runner_report_file);
    return RUNNER_OK;
}
