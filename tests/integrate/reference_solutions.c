// SPDX-License-Identifier: Apache-2.0
/* Reference solutions of the integrator test problems at their end times
 * (declared in problems.h).  Every value is a published one, copied with its
 * digits; `work_precision --check-references` (bench/integrators)
 * re-computes each with dop853 / radau5 at rtol 1e-13 and prints the
 * difference (bench/results/work-precision-original.md lists it).
 *
 * Sources:
 *  [HW]  E. Hairer, G. Wanner, Solving Ordinary Differential Equations II,
 *        2nd ed., Springer 1996, §IV.10: the stiff test problems VDPOL,
 *        ROBER, OREGO, HIRES, PLEI and the reference end values of the
 *        authors' test set for their stiff codes.
 *  [TS]  F. Mazzia, C. Magherini (and earlier W. M. Lioen, J. J. B. de Swart,
 *        CWI), Test Set for IVP Solvers, University of Bari: problems
 *        "rober", "hires", "orego", "plei", each with a reference solution
 *        at the end point given to 16 digits (computed there with RADAU5 or
 *        an extrapolation code at tolerances far below double precision).
 *  [HNW] E. Hairer, S. P. Nørsett, G. Wanner, Solving Ordinary Differential
 *        Equations I, 2nd ed., Springer 1993, §II.0: the Arenstorf orbit
 *        returns to y(0) after one period T (both given there to 30 digits). */
#include "problems.h"

/* Van der Pol, eps = 1e-6 in the scaling y2' = ((1 - y1^2) y2 - y1)/eps,
 * y(0) = (2, 0), at t = 2 [HW]. */
const double itest_ref_vdp[2] = {1.7061677321704650, -0.892809701024817};
/* the same at t = 1 [HW] */
const double itest_ref_vdp_t1[2] = {-1.8636462548081339, 0.7535430865435435};

/* Robertson, k = (0.04, 3e7, 1e4), y(0) = (1, 0, 0), at t = 1e11 [HW], [TS "rober"]. */
const double itest_ref_robertson[3] = {2.083340149701293e-08, 8.333360770334779e-14, 0.9999999791665152};

/* HIRES, y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057), at t = 321.8122 [TS "hires"]. */
const double itest_ref_hires[8] = {0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4,
                                   0.1175651343283149e-2, 0.2386356198831331e-2, 0.6238968252742796e-2,
                                   0.2849998395185769e-2, 0.2850001604814231e-2};

/* OREGO (Oregonator of Field, Körös & Noyes), y(0) = (1, 2, 3), at t = 360 [TS "orego"]. */
const double itest_ref_orego[3] = {0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3};

/* Pleiades (seven bodies in the plane, masses 1..7), at t = 3 [TS "plei"]:
 * x (7), y (7), x' (7), y' (7). */
const double itest_ref_pleiades[28] = {
    0.3706139143970502,  3.237284092057233,   -3.222559032418324,  0.6597091455775310, 0.3425581707156584,
    1.562172101400631,   -0.7003092922212495, -3.943437585517392,  -3.271380973972550, 5.225081843456543,
    -2.590612434977470,  1.198213693392275,   -0.2429682344935824, 1.091449240428980,  3.417003806314313,
    1.354584501625501,   -2.590065597810775,  2.025053734714242,   -1.155815100160448, -0.8072988170223021,
    0.5952396354208710,  -3.741244961234010,  0.3773459685750630,  0.9386858869551073, 0.3667922227200571,
    -0.3474046353808490, 2.344915448180937,   -1.947020434263292};

/* Arenstorf orbit, mu = 0.012277471: periodic, y(T) = y(0) [HNW]. */
const double itest_ref_arenstorf[4] = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};
