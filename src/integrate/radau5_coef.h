// SPDX-License-Identifier: Apache-2.0
/* Coefficients of the 3-stage Radau IIA method (order 5) used by radau5.c,
 * HW II §IV.5 (Table 5.6) and §IV.8.  All values were computed here from the
 * nodes with 40-digit arithmetic (sympy/mpmath): A from the collocation
 * conditions, its inverse's eigen-decomposition, and the interpolation
 * matrix below.
 *
 *   c = ((4 - √6)/10, (4 + √6)/10, 1)
 *   A^-1 has the real eigenvalue γ and the pair α ± iβ;
 *   T^-1 A^-1 T = Λ = [[γ, 0, 0], [0, α, -β], [0, β, α]]   (HW II §IV.8),
 *   columns of T: the real eigenvector (unit length, positive third entry),
 *   then the real and imaginary parts of the eigenvector of α - iβ scaled to
 *   third entry 1.
 *
 * Collocation polynomial of a step (t0, h), θ = (t - t0)/h:
 *   u(θ) = y0 + θ b1 + θ² b2 + θ³ b3,   u(c_j) = y0 + z_j  (j = 1, 2, 3),
 * so b = V^-1 z with V_jk = c_j^k; RADAU5_VINV holds V^-1 (exact form
 * V^-1 = [[13+7√6, 13-7√6, 1], [-23-22√6, -23+22√6, -8],
 *         [10+15√6, 10-15√6, 10]] / 3). */
#ifndef COSROD_INTEGRATE_RADAU5_COEF_H
#define COSROD_INTEGRATE_RADAU5_COEF_H

#define RADAU5_SQRT6 2.449489742783178098197284074705891391965

/* nodes */
static const double RADAU5_C[3] = {(4.0 - RADAU5_SQRT6) / 10.0, (4.0 + RADAU5_SQRT6) / 10.0, 1.0};

/* eigenvalues of A^-1 */
static const double RADAU5_GAMMA = 3.637834252744495732208418513577775797946;
static const double RADAU5_ALPHA = 2.681082873627752133895790743211112101027;
static const double RADAU5_BETA = 3.050430199247410569426377624787567904441;

/* T and T^-1, row-major: T[i][j] */
static const double RADAU5_T[3][3] = {
    {0.09123239487089294279154813524943619611868, -0.1412552950209542084279903838077973094093,
     -0.03002919410514742449186111708905386666839},
    {0.2417179327071070189574747793101482328849, 0.2041293522937999319959908102983381740865,
     0.3829421127572619377954382335998732103578},
    {0.9660481826150929361905670807945907949967, 1.0, 0.0}};
static const double RADAU5_TINV[3][3] = {
    {4.32557989006315535102435095295614882732, 0.3391992518158098695428249740534109875118,
     0.5417705399358748711865230334920896318988},
    {-4.17871859155190472734646265851205623, -0.3276828207610623870825332724296162342459,
     0.4766235545005504519600690840910124979399},
    {-0.5028726349457868759512473431395442928594, 2.571926949855605429186785353601675054694,
     -0.5960392048282249249688219110993024032898}};

/* V^-1: monomial coefficients b_k = sum_j RADAU5_VINV[k-1][j] z_j */
static const double RADAU5_VINV[3][3] = {
    {(13.0 + 7.0 * RADAU5_SQRT6) / 3.0, (13.0 - 7.0 * RADAU5_SQRT6) / 3.0, 1.0 / 3.0},
    {(-23.0 - 22.0 * RADAU5_SQRT6) / 3.0, (-23.0 + 22.0 * RADAU5_SQRT6) / 3.0, -8.0 / 3.0},
    {(10.0 + 15.0 * RADAU5_SQRT6) / 3.0, (10.0 - 15.0 * RADAU5_SQRT6) / 3.0, 10.0 / 3.0}};

#endif /* COSROD_INTEGRATE_RADAU5_COEF_H */
