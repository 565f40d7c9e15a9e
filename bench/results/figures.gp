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
set output 'steps.png'
set multiplot layout 1,2
unset logscale x
set logscale y
set xlabel 't [s]'
set ylabel 'accepted h [s]'
set key outside right
set title 'perf-rubber TOL 1e-3 (cf. [LLA] Fig. 8)'
set xrange [0:10]
plot 'steps-rubber-radau5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'radau5', 'steps-rubber-seulex.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'seulex', 'steps-rubber-rodas.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'rodas', 'steps-rubber-ida.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'ida', 'steps-rubber-cvode.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'cvode', 'steps-rubber-dopri5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'dopri5'
set title 'perf-steel TOL 1e-3 (cf. [LLA] Fig. 8)'
set xrange [0:10]
plot 'steps-steel-radau5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'radau5', 'steps-steel-seulex.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'seulex', 'steps-steel-rodas.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'rodas', 'steps-steel-ida.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'ida', 'steps-steel-cvode.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'cvode', 'steps-steel-dopri5.csv' using 1:($3 == 1 ? $2 : 1/0) every ::1 with lines title 'dopri5'
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
