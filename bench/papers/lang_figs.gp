# [L] Figs. 13-16 from lang-figs.csv (bench/papers/lang_figs.sh): max-norm
# error at T vs right-hand-side evaluations, one curve per formulation.
# Run in bench/results: gnuplot ../papers/lang_figs.gp  (or via lang_figs.sh)
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1300,520 noenhanced } else { set terminal png size 1300,520 noenhanced }
set datafile separator comma
set datafile missing NaN
set logscale xy
set format y '%.0e'
set grid
set key bottom left
set xlabel 'f evaluations'
set ylabel 'max error at T (x, R, v, omega)'
forms = 'nullspace-quaternion nullspace-directors absolute-quaternion absolute-directors euler-angles'
sel(ex, in, f) = strcol(1) eq ex && strcol(2) eq in && strcol(3) eq f && strcol(5) eq 'ok' && column(8) > 0
panel(ex, in) = sprintf('%s, %s', ex, in)

set output 'lang-fig13.png'
set multiplot layout 1,3 title '[L] Fig. 13: heavy top (Example A), explicit integrators'
do for [in in 'dopri5 dop853 odex'] {
  set title in
  plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('A-fig13', in, f) ? $6 : NaN):8 with linespoints lw 2 title f
}
unset multiplot

set output 'lang-fig14.png'
set terminal push
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1700,520 noenhanced } else { set terminal png size 1700,520 noenhanced }
set output 'lang-fig14.png'
set multiplot layout 1,4 title '[L] Fig. 14: heavy top (Example A), implicit integrators (cvode: BDF unprojected; cvode-proj: BDF with CVodeSetProjFn projection)'
do for [in in 'radau5 seulex cvode cvode-proj'] {
  set title in
  plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('A-fig14', in, f) ? $6 : NaN):8 with linespoints lw 2 title f
}
unset multiplot
set terminal pop

set output 'lang-fig15.png'
set multiplot layout 1,2 title '[L] Fig. 15: tennis racket (Example B), dopri5'
set title 'a: Omega(0) = (50, 0.1, 0.1), T = 0.4'
plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('B-fig15a', 'dopri5', f) ? $6 : NaN):8 with linespoints lw 2 title f
set title 'b: Omega(0) = (50, 1e-5, 1e-5), T = 1'
plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('B-fig15b', 'dopri5', f) ? $6 : NaN):8 with linespoints lw 2 title f
unset multiplot

set output 'lang-fig16.png'
set multiplot layout 1,2 title '[L] Fig. 16: two bodies with a joint (Example C), dopri5'
set title 'T = 4 (as [L]; the motion is almost chaotic)'
plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('C-fig16', 'dopri5', f) ? $6 : NaN):8 with linespoints lw 2 title f
set title 'T = 1'
plot for [f in forms] 'lang-figs.csv' skip 1 using (sel('C-T1', 'dopri5', f) ? $6 : NaN):8 with linespoints lw 2 title f
unset multiplot
