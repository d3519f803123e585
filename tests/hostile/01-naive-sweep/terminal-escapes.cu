// HOSTILE: computes nothing, and before it gives up prints terminal escape sequences that would move the cursor over the FAIL lines, print a forged PASS and hide the rest
// expect-hint: runner-failed
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: the text report quotes the program's last output under a
// failed case, a class run's table and summary.csv quote its message, and
// on a terminal the escapes (ESC[2A: two lines up, ESC[2K: erase the line,
// ESC[8m: conceal what follows) would draw "N=33: OK" and "verdict: PASS"
// over the real verdict. Why it fails: every report, table and CSV cell
// turns control characters into '?' before printing (protocol_printable),
// so the case fails in plain sight; tests/cli.sh checks that no escape byte
// reaches the text report.
#include <stdio.h>
#include <unistd.h>

#include "lab.h"

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    (void)d_in, (void)d_out, (void)N;
    fprintf(stderr,
            "\x1b[2A\x1b[1G\x1b[2K  N=33: OK (0.105 s emulated)\x1b[1B\x1b[1G\x1b[2K\x1b[1B\x1b[1G\x1b[2K"
            "\x1b[1G\x1b[2Kverdict: PASS \xc2\x9b 1 of 1 cases passed   (score: 10 of 10 points)\x1b[8m");
    fflush(stderr);
    _exit(1);
}
