# grader/pictures/tile_sweep.gp — lab 10's tile-size sweep as bars: one bar
# per tile shape, its GB/s (8 bytes a point a step) as the judge timed it, the
# copy limit measured in the same runs as a dashed line.
#
# usage: gnuplot -c tile_sweep.gp DATA OUT TITLE     writes OUT.png and OUT.svg
# DATA (tests/bench/heat_tile_sweep.sh writes it): one line per tile shape,
#   index  "TXxTY"  ms-per-step  GB/s  copy-limit-GB/s
data = ARG1
out = ARG2
stats data using 1 nooutput
shapes = STATS_records
stats data using 5 nooutput
roof = STATS_max
stats data using 4 nooutput
top = (roof > STATS_max ? roof : STATS_max) * 1.15
set title ARG3 noenhanced
set ylabel "GB/s (8 B a point a step)"
set xlabel "output tile a block owns (columns x rows)"
set xrange [-0.6:shapes - 0.4]
set yrange [0:top]
set grid ytics
set key below
set style fill solid 0.8 border lc rgb "white"
set boxwidth 0.7
set terminal pngcairo size (shapes * 70 + 260),420 font "sans,10"
set output out.".png"
plot data using 1:4:xtic(2) with boxes lc rgb "#4575b4" title "heat_solve, GB/s" noenhanced, \
     data using 1:4:(sprintf("%.0f", $4)) with labels offset 0,0.8 notitle, \
     roof with lines dt 2 lc rgb "#d73027" title sprintf("copy limit, %.0f GB/s", roof)
set terminal svg size (shapes * 70 + 260),420 font "sans,10"
set output out.".svg"
replot
unset output
