// SPDX-License-Identifier: Apache-2.0
/* DOP853: the explicit Runge–Kutta method of Dormand & Prince of order 8
 * with embedded error estimators of orders 5 and 3 ("8(5,3)"), 12 stages
 * plus the FSAL evaluation, and a continuous extension of order 7 that costs
 * three more stages (Hairer–Nørsett–Wanner, Solving ODEs I, §II.10, Tables
 * 10.3–10.4 in the 2nd edition; coefficients as published with the method).
 *
 * Error estimate (HNW I §II.10): with err5 = ||sum e5_i k_i||, err3 =
 * ||sum_i (b_i - bhat3_i) k_i|| (weighted RMS norms, sk = atol + rtol
 * max(|y0|,|y1|)), err = |h| err5^2 / sqrt(err5^2 + 0.01 err3^2).
 *
 * Control (erk_control.h, README.md "dopri5, dop853"): step-size control on
 * the combined estimate (err ~ h^8), initial step of HNW I §II.4
 * (start_step.c), stiffness test of HW II §IV.2 on stage 12 and the FSAL
 * stage (both at t + h).  Both estimators exactly zero: err = 0 (the step is
 * exact to rounding; the controller then takes fac_max).
 *
 * Dense output contract: after an
 * accepted step from (t, y) with size h, s->y0 = y, s->y1 = the new solution,
 * k[13] = f(t + h, y1), s->t_old = t, s->h_old = h, s->dense_state = 1 and
 * s->fsal_pending = 1 (k[13] becomes k[1] at the next step); the three extra
 * stages are evaluated lazily at the first dense request (counted in nfev). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "integrate/erk_control.h"
#include "integrate/start_step.h"

#define DOP853_BOUNDARY \
  6.25 /* 0.98 x the real-axis stability boundary 6.394 (bench/integrators/erk_stability_boundary.py) */

/* nodes */
static const double C2 = 0.526001519587677318785587544488e-01, C3 = 0.789002279381515978178381316732e-01,
                    C4 = 0.118350341907227396726757197510e+00, C5 = 0.281649658092772603273242802490e+00,
                    C6 = 0.333333333333333333333333333333e+00, C7 = 0.25e+00,
                    C8 = 0.307692307692307692307692307692e+00, C9 = 0.651282051282051282051282051282e+00,
                    C10 = 0.6e+00, C11 = 0.857142857142857142857142857142e+00, C14 = 0.1e+00, C15 = 0.2e+00,
                    C16 = 0.777777777777777777777777777778e+00;
/* weights of the 8th-order solution */
static const double B1 = 5.42937341165687622380535766363e-2, B6 = 4.45031289275240888144113950566e0,
                    B7 = 1.89151789931450038304281599044e0, B8 = -5.8012039600105847814672114227e0,
                    B9 = 3.1116436695781989440891606237e-1, B10 = -1.52160949662516078556178806805e-1,
                    B11 = 2.01365400804030348374776537501e-1, B12 = 4.47106157277725905176885569043e-2;
/* 3rd-order embedded weights (err3 = b - bhh) */
static const double BHH1 = 0.244094488188976377952755905512e+00, BHH2 = 0.733846688281611857341361741547e+00,
                    BHH3 = 0.220588235294117647058823529412e-01;
/* 5th-order error weights */
static const double ER1 = 0.1312004499419488073250102996e-01, ER6 = -0.1225156446376204440720569753e+01,
                    ER7 = -0.4957589496572501915214079952e+00, ER8 = 0.1664377182454986536961530415e+01,
                    ER9 = -0.3503288487499736816886487290e+00, ER10 = 0.3341791187130174790297318841e+00,
                    ER11 = 0.8192320648511571246570742613e-01, ER12 = -0.2235530786388629525884427845e-01;
/* stage matrix */
static const double A21 = 5.26001519587677318785587544488e-2;
static const double A31 = 1.97250569845378994544595329183e-2, A32 = 5.91751709536136983633785987549e-2;
static const double A41 = 2.95875854768068491816892993775e-2, A43 = 8.87627564304205475450678981324e-2;
static const double A51 = 2.41365134159266685502369798665e-1, A53 = -8.84549479328286085344864962717e-1,
                    A54 = 9.24834003261792003115737966543e-1;
static const double A61 = 3.7037037037037037037037037037e-2, A64 = 1.70828608729473871279604482173e-1,
                    A65 = 1.25467687566822425016691814123e-1;
static const double A71 = 3.7109375e-2, A74 = 1.70252211019544039314978060272e-1,
                    A75 = 6.02165389804559606850219397283e-2, A76 = -1.7578125e-2;
static const double A81 = 3.70920001185047927108779319836e-2, A84 = 1.70383925712239993810214054705e-1,
                    A85 = 1.07262030446373284651809199168e-1, A86 = -1.53194377486244017527936158236e-2,
                    A87 = 8.27378916381402288758473766002e-3;
static const double A91 = 6.24110958716075717114429577812e-1, A94 = -3.36089262944694129406857109825e0,
                    A95 = -8.68219346841726006818189891453e-1, A96 = 2.75920996994467083049415600797e1,
                    A97 = 2.01540675504778934086186788979e1, A98 = -4.34898841810699588477366255144e1;
static const double A101 = 4.77662536438264365890433908527e-1, A104 = -2.48811461997166764192642586468e0,
                    A105 = -5.90290826836842996371446475743e-1, A106 = 2.12300514481811942347288949897e1,
                    A107 = 1.52792336328824235832596922938e1, A108 = -3.32882109689848629194453265587e1,
                    A109 = -2.03312017085086261358222928593e-2;
static const double A111 = -9.3714243008598732571704021658e-1, A114 = 5.18637242884406370830023853209e0,
                    A115 = 1.09143734899672957818500254654e0, A116 = -8.14978701074692612513997267357e0,
                    A117 = -1.85200656599969598641566180701e1, A118 = 2.27394870993505042818970056734e1,
                    A119 = 2.49360555267965238987089396762e0, A1110 = -3.0467644718982195003823669022e0;
static const double A121 = 2.27331014751653820792359768449e0, A124 = -1.05344954667372501984066689879e1,
                    A125 = -2.00087205822486249909675718444e0, A126 = -1.79589318631187989172765950534e1,
                    A127 = 2.79488845294199600508499808837e1, A128 = -2.85899827713502369474065508674e0,
                    A129 = -8.87285693353062954433549289258e0, A1210 = 1.23605671757943030647266201528e1,
                    A1211 = 6.43392746015763530355970484046e-1;
/* extra stages for the dense output */
static const double A141 = 5.61675022830479523392909219681e-2, A147 = 2.53500210216624811088794765333e-1,
                    A148 = -2.46239037470802489917441475441e-1, A149 = -1.24191423263816360469010140626e-1,
                    A1410 = 1.5329179827876569731206322685e-1, A1411 = 8.20105229563468988491666602057e-3,
                    A1412 = 7.56789766054569976138603589584e-3, A1413 = -8.298e-3;
static const double A151 = 3.18346481635021405060768473261e-2, A156 = 2.83009096723667755288322961402e-2,
                    A157 = 5.35419883074385676223797384372e-2, A158 = -5.49237485713909884646569340306e-2,
                    A1511 = -1.08347328697249322858509316994e-4, A1512 = 3.82571090835658412954920192323e-4,
                    A1513 = -3.40465008687404560802977114492e-4, A1514 = 1.41312443674632500278074618366e-1;
static const double A161 = -4.28896301583791923408573538692e-1, A166 = -4.69762141536116384314449447206e0,
                    A167 = 7.68342119606259904184240953878e0, A168 = 4.06898981839711007970213554331e0,
                    A169 = 3.56727187455281109270669543021e-1, A1613 = -1.39902416515901462129418009734e-3,
                    A1614 = 2.9475147891527723389556272149e0, A1615 = -9.15095847217987001081870187138e0;
/* dense output coefficients: row r = 4..7 of the continuous extension, columns = stages
 * 1, 6..16 (index 0 <-> stage 1, index s-5 <-> stage s for s = 6..16) */
static const double DC[4][12] = {
    {-0.84289382761090128651353491142e+01, 0.56671495351937776962531783590e+00,
     -0.30689499459498916912797304727e+01, 0.23846676565120698287728149680e+01,
     0.21170345824450282767155149946e+01, -0.87139158377797299206789907490e+00,
     0.22404374302607882758541771650e+01, 0.63157877876946881815570249290e+00,
     -0.88990336451333310820698117400e-01, 0.18148505520854727256656404962e+02,
     -0.91946323924783554000451984436e+01, -0.44360363875948939664310572000e+01},
    {0.10427508642579134603413151009e+02, 0.24228349177525818288430175319e+03,
     0.16520045171727028198505394887e+03, -0.37454675472269020279518312152e+03,
     -0.22113666853125306036270938578e+02, 0.77334326684722638389603898808e+01,
     -0.30674084731089398182061213626e+02, -0.93321305264302278729567221706e+01,
     0.15697238121770843886131091075e+02, -0.31139403219565177677282850411e+02,
     -0.93529243588444783865713862664e+01, 0.35816841486394083752465898540e+02},
    {0.19985053242002433820987653617e+02, -0.38703730874935176555105901742e+03,
     -0.18917813819516756882830838328e+03, 0.52780815920542364900561016686e+03,
     -0.11573902539959630126141871134e+02, 0.68812326946963000169666922661e+01,
     -0.10006050966910838403183860980e+01, 0.77771377980534432092869265740e+00,
     -0.27782057523535084065932004339e+01, -0.60196695231264120758267380846e+02,
     0.84320405506677161018159903784e+02, 0.11992291136182789328035130030e+02},
    {-0.25693933462703749003312586129e+02, -0.15418974869023643374053993627e+03,
     -0.23152937917604549567536039109e+03, 0.35763911791061412378285349910e+03,
     0.93405324183624310003907691704e+02, -0.37458323136451633156875139351e+02,
     0.10409964950896230045147246184e+03, 0.29840293426660503123344363579e+02,
     -0.43533456590011143754432175058e+02, 0.96324553959188282948394950600e+02,
     -0.39177261675615439165231486172e+02, -0.14972683625798562581422125276e+03}};

typedef struct dop853_state {
  int n;
  double *k[17];    /* k[1..16] (n) stage derivatives; k[13] = f(t+h, y1) (FSAL) */
  double *mem;      /* the single allocation behind all arrays */
  double *y0;       /* (n) start of the last accepted step */
  double *y1;       /* (n) end of the last accepted step (unprojected) */
  double *ys;       /* (n) stage argument */
  double *rc;       /* (8n) dense output coefficients */
  int fsal_pending; /* k[13] holds f at the new point; move it to k[1] before the next step */
  int dense_state;  /* 0 none, 1 stages of the last accepted step intact, 2 coefficients ready */
  double t_old, h_old;
  erk_control ctl;
} dop853_state;

static void dop853_free(void *s_) {
  dop853_state *s = s_;
  if (!s) return;
  free(s->mem);
  free(s);
}

static cosrod_status dop853_alloc(void **out, cosrod_step_ctx *ctx) {
  dop853_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  s->n = n;
  double *p = calloc((size_t)n * (16 + 3 + 8), sizeof(double));
  if (!p) {
    free(s);
    return COSROD_ERR_NOMEM;
  }
  s->mem = p;
  for (int i = 1; i <= 16; i++) s->k[i] = p + (size_t)(i - 1) * n;
  p += 16 * (size_t)n;
  s->y0 = p;
  s->y1 = p + n;
  s->ys = p + 2 * n;
  s->rc = p + 3 * n;
  erk_control_init(&s->ctl, ctx, 8.0, 0.0, DOP853_BOUNDARY);
  *out = s;
  return COSROD_OK;
}

/* k[1] = f(t, y) at the start of an integration (or after y was modified). */
static cosrod_status dop853_f_start(dop853_state *s, cosrod_step_ctx *ctx) {
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->k[1]);
  if (rc != 0)
    return rc < 0 ? COSROD_ERR_CALLBACK
                  : cosrod_step_fail(ctx, ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, ctx->t,
                                     "right-hand side failed at the initial point t = %.17g", ctx->t);
  ctx->y_modified = 0;
  return COSROD_OK;
}

static cosrod_status dop853_reset(void *s_, cosrod_step_ctx *ctx) {
  dop853_state *s = s_;
  s->fsal_pending = 0;
  s->dense_state = 0;
  s->h_old = 0.0;
  erk_control_reset(&s->ctl);
  cosrod_status st = dop853_f_start(s, ctx);
  if (st != COSROD_OK) return st;
  if (ctx->h == 0.0)
    ctx->h = cosrod_integrate_start_step(ctx, s->k[1], 8.0, 1, s->k[2]); /* k2..k4: 3n scratch */
  return COSROD_OK;
}

/* ys = y + h * sum_j a[j] k[idx[j]] */
static void stage_arg(int n, double *ys, const double *y, double h, double *const *k, const int *idx,
                      const double *a, int m) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++) s += a[j] * k[idx[j]][i];
    ys[i] = y[i] + h * s;
  }
}

/* Stages 2..12 of a step h from (t, y) with k[1] = f(t, y): s->y1 = the
 * 8th-order solution, s->ys = the argument of stage 12.  k[13] = f(t + h, y1)
 * is NOT evaluated here (the rewrite evaluates it for an accepted step).
 * Returns the f callback's code (0, > 0 recoverable, < 0 fatal). */
static int dop853_stages(dop853_state *s, cosrod_step_ctx *ctx, double t, const double *y, double h) {
  const int n = s->n;
  double **k = s->k;
  double *ys = s->ys;
  /* stages 2..12 as (node, used stages, coefficients) */
  static const int i2[] = {1}, i3[] = {1, 2}, i4[] = {1, 3}, i5[] = {1, 3, 4}, i6[] = {1, 4, 5},
                   i7[] = {1, 4, 5, 6}, i8[] = {1, 4, 5, 6, 7}, i9[] = {1, 4, 5, 6, 7, 8},
                   i10[] = {1, 4, 5, 6, 7, 8, 9}, i11[] = {1, 4, 5, 6, 7, 8, 9, 10},
                   i12[] = {1, 4, 5, 6, 7, 8, 9, 10, 11};
  const double a2[] = {A21}, a3[] = {A31, A32}, a4[] = {A41, A43}, a5[] = {A51, A53, A54},
               a6[] = {A61, A64, A65}, a7[] = {A71, A74, A75, A76}, a8[] = {A81, A84, A85, A86, A87},
               a9[] = {A91, A94, A95, A96, A97, A98}, a10[] = {A101, A104, A105, A106, A107, A108, A109},
               a11[] = {A111, A114, A115, A116, A117, A118, A119, A1110},
               a12[] = {A121, A124, A125, A126, A127, A128, A129, A1210, A1211};
  const int *idx[13] = {NULL, NULL, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12};
  const double *aa[13] = {NULL, NULL, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12};
  const int na[13] = {0, 0, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9};
  const double cc[13] = {0, 0, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, 1.0};
  for (int st = 2; st <= 12; st++) {
    stage_arg(n, ys, y, h, k, idx[st], aa[st], na[st]);
    double ts = st == 12 ? t + h : t + cc[st] * h;
    int rc = cosrod_step_call_f(ctx, ts, ys, k[st]);
    if (rc != 0) return rc;
  }
  for (int i = 0; i < n; i++) {
    double inc = B1 * k[1][i] + B6 * k[6][i] + B7 * k[7][i] + B8 * k[8][i] + B9 * k[9][i] + B10 * k[10][i] +
                 B11 * k[11][i] + B12 * k[12][i];
    s->y1[i] = y[i] + h * inc;
  }
  return 0;
}

/* The error estimate of HNW I §II.10 for the computed stages (see the top of
 * the file) into *err (NaN/Inf if not finite); 0 when both estimators
 * vanish (the quotient's limit along err3 = 0 is 0). */
static cosrod_status dop853_error(const dop853_state *s, cosrod_step_ctx *ctx, const double *y, double h,
                                  double *err) {
  const int n = s->n;
  double *const *k = s->k;
  double err5 = 0.0, err3 = 0.0;
  for (int i = 0; i < n; i++) {
    double inc = B1 * k[1][i] + B6 * k[6][i] + B7 * k[7][i] + B8 * k[8][i] + B9 * k[9][i] + B10 * k[10][i] +
                 B11 * k[11][i] + B12 * k[12][i];
    double sk = ctx->atol[i] + ctx->rtol[i] * fmax(fabs(y[i]), fabs(s->y1[i]));
    double e3 = inc - BHH1 * k[1][i] - BHH2 * k[9][i] - BHH3 * k[12][i];
    double e5 = ER1 * k[1][i] + ER6 * k[6][i] + ER7 * k[7][i] + ER8 * k[8][i] + ER9 * k[9][i] +
                ER10 * k[10][i] + ER11 * k[11][i] + ER12 * k[12][i];
    err3 += (e3 / sk) * (e3 / sk);
    err5 += (e5 / sk) * (e5 / sk);
  }
  const double deno = err5 + 0.01 * err3;
  if (deno == 0.0) {
    *err = 0.0;
    return COSROD_OK;
  }
  *err = fabs(h) * err5 * sqrt(1.0 / (n * deno));
  return COSROD_OK;
}

static cosrod_status dop853_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  dop853_state *s = s_;
  double **k = s->k;
  *accepted = 0;
  if (s->fsal_pending) {
    double *tmp = k[1];
    k[1] = k[13];
    k[13] = tmp;
    s->fsal_pending = 0;
  }
  if (s->dense_state == 1) s->h_old = 0.0; /* stages are about to be overwritten */
  s->dense_state = s->dense_state == 2 ? 2 : 0;
  if (ctx->y_modified) {
    cosrod_status st = dop853_f_start(s, ctx);
    if (st != COSROD_OK) return st;
  }
  const double h = ctx->h;
  ctx->stats->nsteps++;
  int rc = dop853_stages(s, ctx, ctx->t, ctx->y, h);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  double err = NAN;
  if (rc == 0) {
    cosrod_status st = dop853_error(s, ctx, ctx->y, h, &err);
    if (st != COSROD_OK) return st;
  }
  if (err <= 1.0) { /* FSAL stage at the candidate point (needed for the next step and dense output) */
    rc = cosrod_step_call_f(ctx, ctx->t + h, s->y1, k[13]);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) err = NAN;
  }
  double q;
  if (erk_control_reject(&s->ctl, ctx, rc, err, h, &q)) return COSROD_OK;
  const int stiff = erk_control_stiff(&s->ctl, s->n, h, k[13], k[12], s->y1, s->ys);
  s->t_old = ctx->t;
  s->h_old = h;
  s->dense_state = 1;
  s->fsal_pending = 1;
  return erk_control_accept(ctx, s->n, h, q, s->y0, s->y1, stiff, "dop853", DOP853_BOUNDARY, accepted);
}

/* Evaluate stages 14..16 and the coefficients of the order-7 extension. */
static cosrod_status dop853_prepare_dense(dop853_state *s, cosrod_step_ctx *ctx) {
  const int n = s->n;
  double **k = s->k;
  const double h = s->h_old, t = s->t_old;
  const double *y = s->y0;
  static const int i14[] = {1, 7, 8, 9, 10, 11, 12, 13}, i15[] = {1, 6, 7, 8, 11, 12, 13, 14},
                   i16[] = {1, 6, 7, 8, 9, 13, 14, 15};
  const double a14[] = {A141, A147, A148, A149, A1410, A1411, A1412, A1413},
               a15[] = {A151, A156, A157, A158, A1511, A1512, A1513, A1514},
               a16[] = {A161, A166, A167, A168, A169, A1613, A1614, A1615};
  double *ys = s->ys;
  stage_arg(n, ys, y, h, k, i14, a14, 8);
  if (cosrod_step_call_f(ctx, t + C14 * h, ys, k[14]) != 0) return COSROD_ERR_CALLBACK;
  stage_arg(n, ys, y, h, k, i15, a15, 8);
  if (cosrod_step_call_f(ctx, t + C15 * h, ys, k[15]) != 0) return COSROD_ERR_CALLBACK;
  stage_arg(n, ys, y, h, k, i16, a16, 8);
  if (cosrod_step_call_f(ctx, t + C16 * h, ys, k[16]) != 0) return COSROD_ERR_CALLBACK;
  double *rc = s->rc;
  for (int i = 0; i < n; i++) {
    double ydiff = s->y1[i] - y[i], bspl = h * k[1][i] - ydiff;
    rc[i] = y[i];
    rc[n + i] = ydiff;
    rc[2 * n + i] = bspl;
    rc[3 * n + i] = ydiff - h * k[13][i] - bspl;
    for (int r = 0; r < 4; r++) {
      const double *d = DC[r];
      double v = d[0] * k[1][i];
      for (int st = 6; st <= 16; st++) v += d[st - 5] * k[st][i];
      rc[(4 + r) * n + i] = h * v;
    }
  }
  s->dense_state = 2;
  return COSROD_OK;
}

static cosrod_status dop853_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  dop853_state *s = s_;
  if (s->h_old == 0.0 || s->dense_state == 0) return COSROD_ERR_INVALID;
  if (s->dense_state == 1) {
    cosrod_status st = dop853_prepare_dense(s, ctx);
    if (st != COSROD_OK) return st;
  }
  const int n = s->n;
  const double th = (t - s->t_old) / s->h_old, th1 = 1.0 - th;
  const double *r = s->rc;
  int m = idx ? nidx : n;
  for (int q = 0; q < m; q++) {
    int i = idx ? idx[q] : q;
    out[q] =
        r[i] + th * (r[n + i] +
                     th1 * (r[2 * n + i] +
                            th * (r[3 * n + i] +
                                  th1 * (r[4 * n + i] +
                                         th * (r[5 * n + i] + th1 * (r[6 * n + i] + th * r[7 * n + i]))))));
  }
  return COSROD_OK;
}

static const cosrod_step_type dop853_type = {
    "dop853",
    8,
    COSROD_STEP_EXPLICIT | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE,
    dop853_alloc,
    dop853_reset,
    dop853_step,
    dop853_dense,
    dop853_free,
};

const cosrod_step_type *const cosrod_step_dop853 = &dop853_type;
