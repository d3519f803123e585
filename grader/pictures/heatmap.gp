# grader/pictures/heatmap.gp — the heat map of a failing case: one z plane (or a y slice),
# each cell coloured by how far its value is from the reference's, in units
# of the tolerance the lab allows; cells never written, NaN and boundary
# cells in colours of their own.
#
# usage: gnuplot -c heatmap.gp DATA OUT TITLE [ROWS]     writes OUT.png and OUT.svg
# DATA (the judge writes it, grader/judge/pictures.c): "k j value" per cell,
# a blank line after each row; value is log10(|got - want| / allowed),
# clipped to [-3, 4], or one of the codes of the colour box's lower bands.
# ROWS names the rows' axis: "j (y, the row)" for a z plane (the default),
# "i (z, the plane)" for a side view (a y slice, when whole z planes are wrong).
data = ARG1
out = ARG2
set title ARG3 noenhanced
set xlabel "k (x, the column)"
set ylabel (ARGC >= 4 ? ARG4 : "j (y, the row)") noenhanced
set cblabel "|got - want| / allowed" noenhanced
set size ratio -1
set lmargin at screen 0.08
set rmargin at screen 0.70
set colorbox user origin screen 0.73, screen 0.12 size screen 0.025, screen 0.76
set tics out
set autoscale fix
set cbrange [-7:4]
# Bands of one colour each for the codes, a pale scale up to the tolerance,
# warm colours beyond it; equal values give the sharp steps between them.
set palette defined (-7 "#c51b7d", -6 "#c51b7d", -6 "black", -5 "black", -5 "#2166ac", -4 "#2166ac", \
                     -4 "#bdbdbd", -3.02 "#bdbdbd", -3.02 "white", 0 "#b8e186", 0 "#fee08b", 1 "#fdae61", \
                     2 "#f46d43", 3 "#d73027", 4 "#a50026")
set cbtics ("NaN" -6.5, "never written" -5.5, "boundary changed" -4.5, "boundary, kept" -3.5, \
            "0.001" -3, "0.01" -2, "0.1" -1, "1: the tolerance" 0, "10" 1, "100" 2, "1000" 3, ">= 10^4" 4) noenhanced
set terminal pngcairo size 960,800 font "sans,10"
set output out.".png"
plot data using 1:2:3 with image notitle
set terminal svg size 960,800 font "sans,10"
set output out.".svg"
replot
unset output
