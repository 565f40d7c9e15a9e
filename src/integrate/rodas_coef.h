// SPDX-License-Identifier: Apache-2.0
/* The RODAS coefficient set of Hairer & Wanner (Solving ODEs II, §IV.7,
 * construction of RODAS with γ = 1/4, c2 = 0.386, c3 = 0.21, c4 = 0.63,
 * β'2 = 0.0317, β'3 = 0.0635, β'4 = 0.3438; published with their code RODAS),
 * in the transformed variables u_i = h Σ_j γ_ij k_j used by rodas.c:
 *   A_ij = (α_ij) Γ^-1,  C_ij = diag(1/γ) − Γ^-1 (below the diagonal),
 *   weights of y1: (A_51..A_54, 1, 1) (stiffly accurate), of the embedded
 *   order-3 solution: (A_51..A_54, 1, 0); c_i = Σ_j α_ij, D_i = γ_i = Σ_j γ_ij
 *   (c5 = c6 = 1, D5 = D6 = 0); H2j, H3j the dense output of order 3.
 * Shared by rodas.c and its test (order conditions checked there). */
#ifndef COSROD_INTEGRATE_RODAS_COEF_H
#define COSROD_INTEGRATE_RODAS_COEF_H

static const double GAMMA = 0.25;
static const double C2 = 0.386, C3 = 0.21, C4 = 0.63;
static const double D1 = 0.25, D2 = -0.1043, D3 = 0.1035, D4 = -0.0362;
static const double A21 = 1.544;
static const double A31 = 0.9466785280815826, A32 = 0.2557011698983284;
static const double A41 = 3.314825187068521, A42 = 2.896124015972201, A43 = 0.9986419139977817;
static const double A51 = 1.221224509226641, A52 = 6.019134481288629, A53 = 12.53708332932087,
                    A54 = -0.6878860361058950;
static const double C21 = -5.6688;
static const double C31 = -2.430093356833875, C32 = -0.2063599157091915;
static const double C41 = -0.1073529058151375, C42 = -9.594562251023355, C43 = -20.47028614809616;
static const double C51 = 7.496443313967647, C52 = -10.24680431464352, C53 = -33.99990352819905,
                    C54 = 11.70890893206160;
static const double C61 = 8.083246795921522, C62 = -7.981132988064893, C63 = -31.52159432874371,
                    C64 = 16.31930543123136, C65 = -6.058818238834054;
/* dense output */
static const double H21 = 10.12623508344586, H22 = -7.487995877610167, H23 = -34.80091861555747,
                    H24 = -7.992771707568823, H25 = 1.025137723295662;
static const double H31 = -0.6762803392801253, H32 = 6.087714651680015, H33 = 16.43084320892478,
                    H34 = 24.76722511418386, H35 = -6.594389125716872;

#endif /* COSROD_INTEGRATE_RODAS_COEF_H */
