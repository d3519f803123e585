// grader/judge/sanitizer_log.c — see sanitizer_log.h.
#include "sanitizer_log.h"

#include <stdio.h>
#include <string.h>

// Replaces detail with compute-sanitizer's first error from the log: the
// access, where in the source, and which thread. Leaves detail as it is when
// the log holds no such report.
void sanitizer_memcheck_summary(const char *log_path, char *detail, size_t len)
{
    char line[512], what[160] = "", at[200] = "", who[120] = "";
    FILE *f = fopen(log_path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *text = line + strspn(line, "= ");
        if (!what[0] && strstr(text, "Invalid ") == text)
            snprintf(what, sizeof(what), "%s", text);
        else if (what[0] && !at[0] && strstr(text, "at ") == text)
            snprintf(at, sizeof(at), "%s", text);
        else if (what[0] && !who[0] && strstr(text, "by thread ") == text)
            snprintf(who, sizeof(who), "%s", text);
    }
    if (f)
        fclose(f);
    if (what[0])
        snprintf(detail, len, "compute-sanitizer: %s, %s, %s", what, at[0] ? at : "(no source line: build with -lineinfo)", who);
}

// Finds compute-sanitizer racecheck's first hazard in the log, written as
//   ... Potential RAW hazard detected at __shared__ 0x920 in block (2,1,0) :
//       Write Thread (0,1,5) at stencil_kernel(...)+0x350 in k.cu:27
//       Read Thread (1,1,5) at stencil_kernel(...)+0x370 in k.cu:39
// and says it in one line in where: the hazard, the block, and each access
// with its thread and source line. Returns 1 if there is one.
// Reads the first hazard's report (racecheck_summary's form) from the log
// into where (none when len is 0); *whole gets 1 once the hazard's line
// and both its accesses' are there, the last of them ended (a log still
// being written may end in half a line). Returns 1 if there is a hazard.
static int sanitizer_racecheck_read(const char *log_path, char *where, size_t len, int *whole)
{
    char line[1024], hazard[160] = "", access[2][200] = {"", ""};
    int found = 0, accesses = 0, ended = 0;
    FILE *f = fopen(log_path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        ended = strchr(line, '\n') != NULL || !feof(f);  // (the log's last line may still be being written)
        line[strcspn(line, "\n")] = '\0';
        const char *text = line + strspn(line, "= ");
        const char *at = strstr(text, "hazard detected");
        if (at && !found) {
            const char *kind = at;
            while (kind > text && kind[-1] == ' ')
                kind--;
            while (kind > text && kind[-1] != ' ')
                kind--;
            const char *block = strstr(at, " in block ");
            int kind_len = (int)(at - kind), block_len = block ? (int)strcspn(block + 9, ":") : 0;
            while (kind_len > 0 && kind[kind_len - 1] == ' ')
                kind_len--;
            while (block_len > 0 && block[9 + block_len - 1] == ' ')
                block_len--;
            snprintf(hazard, sizeof(hazard), "%.*s hazard on shared memory%s%.*s", kind_len, kind, block ? " in block" : "",
                     block_len, block ? block + 9 : "");
            found = 1;
            continue;
        }
        const char *thread = strstr(text, " Thread ");
        const char *in = NULL;  // the last " in ": the source file may have spaces in its name
        for (const char *p = strstr(text, " in "); p; p = strstr(p + 1, " in "))
            in = p + 3;
        if (found && accesses < 2 && thread && strstr(text, " at ") && in) {
            const char *end = strstr(thread + 8, " at ");
            snprintf(access[accesses++], sizeof(access[0]), "%.*s by thread %.*s at %s", (int)(thread - text), text,
                     (int)(end - (thread + 8)), thread + 8, in + 1);
        }
        if (found && accesses == 2)
            break;
    }
    if (f)
        fclose(f);
    if (found && len)
        snprintf(where, len, "compute-sanitizer racecheck: %s: %s%s%s", hazard, access[0], accesses > 1 ? ", " : "", access[1]);
    *whole = found && accesses == 2 && ended;
    return found;
}

int sanitizer_racecheck_summary(const char *log_path, char *where, size_t len)
{
    int whole;
    return sanitizer_racecheck_read(log_path, where, len, &whole);
}

int sanitizer_racecheck_whole(const char *log_path)
{
    int whole;
    sanitizer_racecheck_read(log_path, NULL, 0, &whole);
    return whole;
}

