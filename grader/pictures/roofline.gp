# grader/pictures/roofline.gp — the roofline of the timed cases: the roof the
# measured copy bandwidth puts on each OP/B (and the peak arithmetic rate,
# when the data has one), the OP/B figures of the run as vertical lines, and
# the student's kernel as a point.
#
# usage: gnuplot -c roofline.gp DATA OUT TITLE     writes OUT.png and OUT.svg
# DATA (the judge writes it, grader/judge/pictures.c), three blocks:
#   index 0  the roof:          OP/B  GFLOP/s        (a polyline)
#   index 1  OP/B figures:      OP/B  "label"  row (labels of nearby lines on rows 0, 1, 2)
#   index 2  the kernel:        OP/B  GFLOP/s  "label"   (a row each timed case that passed)
data = ARG1
out = ARG2
stats data index 0 using 1 nooutput
xlo = STATS_min
xhi = STATS_max
stats data index 0 using 2 nooutput
ylo = STATS_min
yhi = STATS_max * 3
set title ARG3 noenhanced
set logscale xy
set xrange [xlo:xhi]
set yrange [ylo:yhi]
set xlabel "arithmetic intensity (OP/B: flops per byte)"
set ylabel "GFLOP/s"
set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
set key top left box opaque noenhanced
set tics out
set terminal pngcairo size 960,700 font "sans,10"
set output out.".png"
plot data index 0 using 1:2 with lines lw 3 lc rgb "#2166ac" title "roof: measured copy bandwidth x OP/B", \
     data index 1 using 1:(ylo):(0):(yhi - ylo) with vectors nohead dt 2 lw 1.5 lc rgb "#636363" notitle, \
     data index 1 using 1:(ylo * (yhi / ylo) ** (0.03 + 0.33 * $3)):2 with labels rotate by 90 left offset -1,0 noenhanced tc rgb "#252525" notitle, \
     data index 2 using 1:2 with points pt 7 ps 2 lc rgb "#d73027" title "your kernel (each timed case)", \
     data index 2 using 1:2:3 with labels left offset 1.5,0 noenhanced tc rgb "#a50026" notitle
set terminal svg size 960,700 font "sans,10"
set output out.".svg"
replot
unset output
