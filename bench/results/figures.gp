set terminal pngcairo size 1100,450 font ',10'
set datafile separator ','
set grid
set output 'work-precision.png'
set multiplot layout 1,2
set logscale xy
set xlabel 'tip error at T [m]'
set ylabel 'wall time [s]'
set key left bottom
set title 'perf-rubber (cf. [LLA] Fig. 7)'
plot 'runs.csv' using ((strcol(1) eq 'rubber' && strcol(2) eq 'radau5') ? $12 : 1/0):10 with linespoints title 'radau5', 'runs.csv' using ((strcol(1) eq 'rubber' && strcol(2) eq 'seulex') ? $12 : 1/0):10 with linespoints title 'seulex', 'runs.csv' using ((strcol(1) eq 'rubber' && strcol(2) eq 'rodas') ? $12 : 1/0):10 with linespoints title 'rodas', 'runs.csv' using ((strcol(1) eq 'rubber' && strcol(2) eq 'ida') ? $12 : 1/0):10 with linespoints title 'ida', 'runs.csv' using ((strcol(1) eq 'rubber' && strcol(2) eq 'cvode') ? $12 : 1/0):10 with linespoints title 'cvode'
set title 'perf-steel (cf. [LLA] Fig. 7)'
plot 'runs.csv' using ((strcol(1) eq 'steel' && strcol(2) eq 'radau5') ? $12 : 1/0):10 with linespoints title 'radau5', 'runs.csv' using ((strcol(1) eq 'steel' && strcol(2) eq 'seulex') ? $12 : 1/0):10 with linespoints title 'seulex', 'runs.csv' using ((strcol(1) eq 'steel' && strcol(2) eq 'rodas') ? $12 : 1/0):10 with linespoints title 'rodas', 'runs.csv' using ((strcol(1) eq 'steel' && strcol(2) eq 'ida') ? $12 : 1/0):10 with linespoints title 'ida', 'runs.csv' using ((strcol(1) eq 'steel' && strcol(2) eq 'cvode') ? $12 : 1/0):10 with linespoints title 'cvode'
unset multiplot
set terminal pngcairo size 1200,650 font ',10'
unset logscale x
set logscale y
set format y '%.0e'
set xlabel 't [s]'
set ylabel 'accepted h [s]'
set key off
set output 'steps-rubber.png'
set multiplot layout 2,3 title 'perf-rubber, TOL 1e-3: accepted step sizes (cf. [LLA] Fig. 8, [LA] Fig. 7)'
set yrange [1e-6:1e-1]
set title 'radau5'
set xrange [0:10]
plot 'steps-rubber-radau5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'seulex'
set xrange [0:10]
plot 'steps-rubber-seulex.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'rodas'
set xrange [0:10]
plot 'steps-rubber-rodas.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'ida'
set xrange [0:10]
plot 'steps-rubber-ida.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'cvode'
set xrange [0:10]
plot 'steps-rubber-cvode.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'dopri5'
set xrange [0:*]
plot 'steps-rubber-dopri5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
unset multiplot
set output 'steps-steel.png'
set multiplot layout 2,3 title 'perf-steel, TOL 1e-3: accepted step sizes (cf. [LLA] Fig. 8, [LA] Fig. 7)'
set yrange [1e-8:1e-1]
set title 'radau5'
set xrange [0:10]
plot 'steps-steel-radau5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'seulex'
set xrange [0:10]
plot 'steps-steel-seulex.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'rodas'
set xrange [0:10]
plot 'steps-steel-rodas.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'ida'
set xrange [0:10]
plot 'steps-steel-ida.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'cvode'
set xrange [0:10]
plot 'steps-steel-cvode.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
set title 'dopri5'
set xrange [0:*]
plot 'steps-steel-dopri5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines lw 0.6 lc rgb '#1f4e9a'
unset multiplot
set terminal pngcairo size 1100,450 font ',10'
unset yrange
set format y '%g'
set key top right
set output 'la-fig2.png'
set logscale xy
unset xrange
set xlabel 'N'
set ylabel 'max error at t = 1 s'
set title '[LA] Fig. 2: convergence in N, damped rubber pendulum'
set key bottom left
plot 'la-fig2-convergence.csv' using 1:2 every ::1 with linespoints title 'x [m]', '' using 1:3 every ::1 with linespoints title 'v [m/s]', '' using 1:4 every ::1 with linespoints title 'a [m/s^2]', 10/x**2 with lines dt 2 title 'N^{-2}'
set output 'la-fig5.png'
set multiplot layout 1,2
unset logscale
set logscale y
set xlabel 't [s]'
set ylabel 'accumulated [J]'
set key top left
set xrange [0:10]
set title '[LA] Fig. 5: sum |dT_R| (radau5 TOL 1e-3, undamped rubber)'
plot 'la-fig5-history-absolute.csv' using 1:3 every ::1 with lines title 'absolute', 'la-fig5-history-nullspace.csv' using 1:3 every ::1 with lines title 'null-space'
unset logscale y
set title 'signed sum dT_R'
plot 'la-fig5-history-absolute.csv' using 1:2 every ::1 with lines title 'absolute', 'la-fig5-history-nullspace.csv' using 1:2 every ::1 with lines title 'null-space'
unset multiplot
set output 'la-fig5-damped.png'
set multiplot layout 1,2
unset logscale
set logscale y
set xlabel 't [s]'
set ylabel 'accumulated [J]'
set key top left
set xrange [0:10]
set title '[LA] Fig. 5: sum |dT_R| (radau5 TOL 1e-3, damped rubber, perf-rubber)'
plot 'la-fig5-damped-history-absolute.csv' using 1:3 every ::1 with lines title 'absolute', 'la-fig5-damped-history-nullspace.csv' using 1:3 every ::1 with lines title 'null-space'
set title 'sum |dT_R| at T = 10 s vs TOL (damped rubber)'
set logscale xy
set xrange [*:*] reverse
set xlabel 'TOL'
plot 'la-fig5-damped-energy.csv' using (strcol(1) eq 'absolute' ? $2 : 1/0):4 every ::1 with linespoints title 'absolute', '' using (strcol(1) eq 'nullspace' ? $2 : 1/0):4 every ::1 with linespoints title 'null-space'
unset multiplot
set xrange [*:*] noreverse
unset logscale
set output 'la-fig6.png'
set multiplot layout 1,2
set logscale y
set xrange [0:1]
set xlabel 't [s]'
set ylabel 'accepted h [s]'
set key bottom right
set title '[LA] Fig. 6: dopri5 TOL 1e-3, undamped rubber, Cosserat h(t)'
plot 'la-fig6-steps-N5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'N = 5', 'la-fig6-steps-N10.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'N = 10', 'la-fig6-steps-N20.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'N = 20', 'la-fig6-steps-N40.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'N = 40'
set logscale xy
set xrange [4:200]
set xlabel 'N'
set ylabel 'mean accepted h over T = 1 s [s]'
set key top right
set title 'all three models (la-fig6-models.csv, bench/kirchhoff.sh)'
plot 'la-fig6-models.csv' using 1:(strcol(2) eq 'cosserat' ? $5 : 1/0) every ::1 with linespoints title 'Cosserat', '' using 1:(strcol(2) eq 'kirchhoff-extensible' ? $5 : 1/0) every ::1 with linespoints title 'extensible Kirchhoff', '' using 1:(strcol(2) eq 'kirchhoff-inextensible' ? $5 : 1/0) every ::1 with linespoints title 'inextensible Kirchhoff'
unset multiplot
unset xrange
unset multiplot
set output 'cost.png'
set datafile separator whitespace
set logscale xy
unset xrange
set xlabel 'N'
set ylabel 'ns per call'
set key left top
set title 'f (absolute, tangent-2) and analytic J, O(N)'
plot '< awk "/^# rod right/{f=1} /^# FD/{f=0} f && \$2==\"absolute\" && \$3==\"tangent-2\"" rod_cost.txt' using 1:4 with linespoints title 'f', '< awk "/^# analytic/{f=1} f && \$2==\"absolute\" && \$3==\"tangent-2\"" rod_cost.txt' using 1:4 with linespoints title 'J', x*70 with lines dt 2 title '70 ns x N'
