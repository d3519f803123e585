# grader/pictures/progress.gp — `make status` as a strip: one box per lab,
# green passed, red failed, grey not tried yet, with the lab's name and its
# last check under it.
#
# usage: gnuplot -c progress.gp DATA OUT TITLE     writes OUT.png and OUT.svg
# DATA (grader/class/status.sh writes it): one line per lab, boxes in its
# order (lab numbers start at 0),
#   lab-number  state  "name"  "last check"     state: 0 not tried, 1 failed, 2 passed
data = ARG1
out = ARG2
stats data using 1 nooutput
labs = STATS_records
colour(s) = s == 2 ? 0x1a9850 : s == 1 ? 0xd73027 : 0xbdbdbd
state_word(s) = s == 2 ? "passed" : s == 1 ? "failed" : "not tried"
# A lab's name on two lines when it has more than three words.
join(s, a, b) = a > b ? "" : word(s, a) . (a < b ? " " : "") . join(s, a + 1, b)
two_lines(s) = words(s) <= 3 ? s : join(s, 1, (words(s) + 1) / 2) . "\n" . join(s, (words(s) + 1) / 2 + 1, words(s))
set title ARG3 noenhanced
unset border
unset tics
unset key
set xrange [0.5:labs + 0.5]
set yrange [-1.7:1.1]
set terminal pngcairo size (labs * 190 + 40),260 font "sans,10"
set output out.".png"
plot data using ($0 + 1):(0.5):(0.45):(0.45):(colour($2)) with boxxyerror fill solid 1.0 border lc rgb "white" lc rgb variable, \
     data using ($0 + 1):(0.5):(sprintf("lab %d\n%s", $1, state_word($2))) with labels tc rgb "white" font "sans,11", \
     data using ($0 + 1):(-0.35):(two_lines(strcol(3))) with labels noenhanced, \
     data using ($0 + 1):(-1.1):4 with labels noenhanced tc rgb "#525252"
set terminal svg size (labs * 190 + 40),260 font "sans,10"
set output out.".svg"
replot
unset output
