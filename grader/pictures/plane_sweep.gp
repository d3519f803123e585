# grader/pictures/plane_sweep.gp — speed against plane size: a line a kernel,
# its share of the copy limit (measured in the same run as it) on grids whose
# planes grow, the plane size on a log scale.
#
# usage: gnuplot -c plane_sweep.gp DATA OUT TITLE     writes OUT.png and OUT.svg
# DATA (tests/bench/plane_size_sweep.sh writes it): a first line naming the
# kernels, "# plane-MiB NAME1 NAME2 ...", a comment line, then a line a grid:
#   plane-MiB share-1 share-2 ...   (percent of the copy limit; NaN: not timed)
data = ARG1
out = ARG2
header = system("head -1 '".data."'")
kernels = words(header) - 2   # '#' and 'plane-MiB', then one word a kernel
set title ARG3 noenhanced
set logscale x 2
set xlabel "plane size (MiB: nx x ny x 4 bytes)"
set ylabel "share of the copy limit (%)"
set yrange [0:110]
set grid xtics ytics lc rgb "#e0e0e0"
set key top right box opaque noenhanced
set datafile missing "NaN"
set terminal pngcairo size 900,520 font "sans,10"
set output out.".png"
plot for [i=1:kernels] data using 1:(column(i + 1)) with linespoints lw 2 pt 7 title word(header, i + 2)
set terminal svg size 900,520 font "sans,10"
set output out.".svg"
replot
unset output
