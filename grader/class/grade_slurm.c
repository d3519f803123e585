// grader/class/grade_slurm.c — scale-out on a Slurm cluster: the submissions
// without a result become one job array (a task per submission, one GPU
// each), which runs `grade --task K` on the cluster's nodes (see grade.h).
// It waits with `sbatch --wait`, so nothing needs accounting (sacct); what
// a task leaves is read from the results folder, which must be on a file
// system the nodes share. A second call submits only what is still missing.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grade.h"
#include "spawn.h"

// Writes the array's index list for the entries without a result, ranges
// folded ("0-4,7,9-12"), into list. Returns how many entries it names.
static int grade_slurm_missing(const grade_run *run, char *list, size_t len)
{
    int count = 0;
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < run->nentries; i++) {
        if (run->entries[i].reject[0] || grade_has_result(run, &run->entries[i]))
            continue;
        int j = i;
        while (j + 1 < run->nentries && !run->entries[j + 1].reject[0] && !grade_has_result(run, &run->entries[j + 1]))
            j++;
        used += (size_t)snprintf(list + used, used < len ? len - used : 0, j > i ? "%s%d-%d" : "%s%d", used ? "," : "", i, j);
        count += j - i + 1;
        i = j;
    }
    return count;
}

// Quotes s for a POSIX shell script into out ('...' with ' escaped).
static void grade_shell_quote(const char *s, char *out, size_t len)
{
    size_t n = 0;
    out[n++] = '\'';
    for (; *s && n + 5 < len; s++) {
        if (*s == '\'')
            n += (size_t)snprintf(out + n, len - n, "'\\''");
        else
            out[n++] = *s;
    }
    out[n++] = '\'';
    out[n] = '\0';
}

int grade_slurm(const grade_run *run, char *err, size_t len)
{
    char dir[PATH_MAX], script[PATH_MAX + 16], list[65536], grade[3 * PATH_MAX], out[3 * PATH_MAX], logs[3 * PATH_MAX];
    char array[65600], output[PATH_MAX + 32];
    // the longest list: every other entry, each a range of at most 10 characters ("4093-4095,")
    _Static_assert(sizeof(list) > 10 * (GRADE_MAX_ENTRIES / 2 + 1), "the job array's list must hold every entry");
    int count = grade_slurm_missing(run, list, sizeof(list));
    snprintf(dir, sizeof(dir), "%s/slurm", run->out);
    mkdir(dir, 0755);
    snprintf(script, sizeof(script), "%s/task.sh", dir);
    snprintf(grade, sizeof(grade), "%s/build/grade", run->kit);
    char q_grade[3 * PATH_MAX];
    grade_shell_quote(grade, q_grade, sizeof(q_grade));
    grade_shell_quote(run->out, out, sizeof(out));
    grade_shell_quote(dir, logs, sizeof(logs));
    FILE *f = fopen(script, "w");
    if (!f) {
        snprintf(err, len, "cannot write %s: %s", script, strerror(errno));
        return -1;
    }
    // One task grades one submission; the GPU is the task's own (--gres), so no lock files.
    fprintf(f, "#!/bin/sh\n# One task of make grade SLURM=1: grades entry $SLURM_ARRAY_TASK_ID of the results folder's plan.tsv.\n"
               "echo \"task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on $(hostname), GPU ${CUDA_VISIBLE_DEVICES:-none}\"\n"
               "exec %s --task \"$SLURM_ARRAY_TASK_ID\" --out %s\n", q_grade, out);
    if (fclose(f) != 0 || chmod(script, 0755) != 0) {
        snprintf(err, len, "cannot write %s: %s", script, strerror(errno));
        return -1;
    }
    snprintf(array, sizeof(array), "--array=%s", list);
    snprintf(output, sizeof(output), "--output=%s/task-%%a.out", dir);
    const char *gres = getenv("SLURM_GRES");  // the GPU request; SLURM_GRES= (empty) asks for none
    char gres_opt[256];
    snprintf(gres_opt, sizeof(gres_opt), "--gres=%s", gres ? gres : "gpu:1");
    char *argv[32];
    int n = 0;
    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    argv[n++] = "--wait";
    argv[n++] = "--job-name=stencil-grade";
    argv[n++] = array;
    argv[n++] = output;
    if (!gres || *gres)
        argv[n++] = gres_opt;
    char opts[1024] = "";  // SLURM_OPTS: more sbatch options (partition, account, time), split at spaces
    snprintf(opts, sizeof(opts), "%s", getenv("SLURM_OPTS") ? getenv("SLURM_OPTS") : "");
    char *save = NULL;
    for (char *tok = strtok_r(opts, " ", &save); tok && n < 28; tok = strtok_r(NULL, " ", &save))
        argv[n++] = tok;
    argv[n++] = script;
    argv[n] = NULL;
    printf("submitting %d submissions as one Slurm job array (%s), waiting for it; task logs in %s\n", count, array, dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execvp("sbatch", argv);
        fprintf(stderr, "stencil-labs: cannot run sbatch: %s (SLURM=1 needs Slurm's client commands on PATH)\n", strerror(errno));
        spawn_child_exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        snprintf(err, len, "cannot start sbatch: %s", strerror(errno));
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(err, len, "sbatch not found: SLURM=1 needs Slurm's client commands (sbatch) on PATH");
        return -1;
    }
    // sbatch --wait exits non-zero when a task failed: the results folder says which; missing ones are listed.
    int missing = grade_slurm_missing(run, list, sizeof(list));
    if (missing > 0)
        printf("%d submissions have no result after the job (task logs in %s): run the same make grade again to submit only those\n", missing, dir);
    return 0;
}
