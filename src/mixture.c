/* The mixture family's passes over the rows (R/family-mixture-em.R; SPEC.md
 * section 7): squared distances to the centres, and EM's E-step fused
 * with the sums of the next M-step. Rows are taken in blocks of MIX_BLOCK
 * (in place, the matrix's leading dimension n): one product of the block
 * with the centres (dgemm), then per row the components' log-densities,
 * their log-sum-exp and the responsibilities, then the block's share of
 * the sums N_k = sum_i r_ik, S1 = R'X and S2 (R'||x||^2, or R'X^2 for the
 * diagonal form), added by dgemm while the block is in cache. One pass
 * over X per E-step, no rows x components matrix kept, results in the
 * order of R's: ||x||^2 - 2 x.c + ||c||^2 clamped at 0. */
#include "engine.h"
#include <R_ext/BLAS.h>
#include <math.h>
#include <string.h>

#define MIX_BLOCK 256
/* chunks of blocks with sums of their own (threads take whole chunks) */
#define MIX_CHUNKS 8

/* the rows' squared norms of the block [i0, i0 + b) of X (n x d),
 * coordinates summed in order (as rowSums(X^2)) */
static void block_norms(const double *X, int n, int d, int i0, int b,
                        double *xx) {
  for (int i = 0; i < b; i++) xx[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *x = X + (size_t) l * n + i0;
    for (int i = 0; i < b; i++) xx[i] += x[i] * x[i];
  }
}

/* out (b x K, leading dimension b) = A_block B' for the block of rows
 * [i0, i0 + b) of A (leading dimension lda) and B (K x d) */
static void block_product(const double *A, int lda, int i0, int b, int d,
                          const double *B, int K, double *out) {
  double one = 1.0, zero = 0.0;
  F77_CALL(dgemm)("N", "T", &b, &K, &d, &one, A + i0, &lda, B, &K, &zero,
                  out, &b FCONE FCONE);
}

/* Row i of a block's b x K log-densities L (leading dimension b), whose
 * largest is m: L becomes the posterior of the components, and the row's
 * log-density log sum_k exp(L_ik) is returned (every weight 0 and m
 * returned when m is not finite). */
static double row_posterior(double *L, int b, int K, int i, double m) {
  if (!R_FINITE(m)) {
    for (int k = 0; k < K; k++) L[i + (size_t) k * b] = 0.0;
    return m;
  }
  double s = 0.0;
  for (int k = 0; k < K; k++) s += exp(L[i + (size_t) k * b] - m);
  double li = m + log(s);
  for (int k = 0; k < K; k++) {
    size_t ik = i + (size_t) k * b;
    L[ik] = exp(L[ik] - li);
  }
  return li;
}

/* A block's sums of the responsibilities R (b x K): N_k += sum_i r_ik
 * and, when S2 is given, S2_k += sum_i r_ik xx_i */
static void weight_sums(const double *R, const double *xx, int b, int K,
                        double *N, double *S2) {
  for (int k = 0; k < K; k++) {
    const double *r = R + (size_t) k * b;
    double s = 0.0, s2 = 0.0;
    for (int i = 0; i < b; i++) {
      s += r[i];
      s2 += r[i] * xx[i];
    }
    N[k] += s;
    if (S2) S2[k] += s2;
  }
}

/* one E-step's work on the block of rows [i0, i0 + b): w its scratch, a
 * its chunk's sums (NULL without sums) */
typedef void (*mix_block_fn)(const void *ctx, int i0, int b, double *w,
                             double *a);

/* An E-step pass over n rows: blocks of MIX_BLOCK rows in MIX_CHUNKS
 * chunks of consecutive blocks (fewer when there are fewer blocks), the
 * chunks among the engine's threads (work: the pass's flops, for the
 * team's size), each thread with wlen values of scratch, each chunk with
 * `per` sums of its own, added in chunk order into sums (per values;
 * NULL: no sums): the same numbers for any number of threads. */
static void mix_chunks(int n, int64_t work, size_t wlen, size_t per,
                       mix_block_fn fn, const void *ctx, double *sums) {
  int nblk = (n + MIX_BLOCK - 1) / MIX_BLOCK;
  int nch = nblk < MIX_CHUNKS ? nblk : MIX_CHUNKS;
  double *acc = sums && nch > 0
    ? (double *) R_alloc((size_t) nch * per, sizeof(double)) : NULL;
  if (acc) memset(acc, 0, (size_t) nch * per * sizeof(double));
  int old;
  int use = prd_blocked_team(work, nch, &old);
  double *scratch = (double *) R_alloc((size_t) (use > 0 ? use : 1) * wlen,
                                       sizeof(double));
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic, 1)
#endif
  for (int ch = 0; ch < nch; ch++) {
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
    double *w = scratch + (size_t) tid * wlen;
    double *a = acc ? acc + (size_t) ch * per : NULL;
    int b0 = (int) ((int64_t) nblk * ch / nch);
    int b1 = (int) ((int64_t) nblk * (ch + 1) / nch);
    for (int blk = b0; blk < b1; blk++) {
      int i0 = blk * MIX_BLOCK;
      fn(ctx, i0, n - i0 < MIX_BLOCK ? n - i0 : MIX_BLOCK, w, a);
    }
  }
  prd_blas_serial_end(old);
  if (!sums) return;
  memset(sums, 0, per * sizeof(double));
  for (int ch = 0; ch < nch; ch++) {
    const double *a = acc + (size_t) ch * per;
    for (size_t j = 0; j < per; j++) sums[j] += a[j];
  }
}

/* .Call(ffi_mixture_dist2, X, C, xx): the n x K squared distances of the
 * rows of X (n x d) to the rows of C (K x d), clamped at 0; xx: the rows'
 * squared norms (as block_norms() gives them), or NULL */
SEXP ffi_mixture_dist2(SEXP X, SEXP C, SEXP XX) {
  int n = Rf_nrows(X), d = Rf_ncols(X), K = Rf_nrows(C);
  if (!Rf_isReal(X) || !Rf_isReal(C) || Rf_ncols(C) != d ||
      (!Rf_isNull(XX) && (!Rf_isReal(XX) || Rf_length(XX) != n))) {
    Rf_error("ffi_mixture_dist2: X and C must be double matrices of the same columns");
  }
  const double *xn = Rf_isNull(XX) ? NULL : REAL(XX);
  const double *x = REAL(X), *c = REAL(C);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, n, K));
  double *o = REAL(out);
  double *cc = (double *) R_alloc((size_t) K + 1, sizeof(double));
  double *xx = (double *) R_alloc(MIX_BLOCK, sizeof(double));
  double *g = (double *) R_alloc((size_t) MIX_BLOCK * K + 1, sizeof(double));
  for (int k = 0; k < K; k++) {
    double s = 0.0;
    for (int l = 0; l < d; l++) s += c[k + (size_t) l * K] * c[k + (size_t) l * K];
    cc[k] = s;
  }
  for (int i0 = 0; i0 < n && K > 0; i0 += MIX_BLOCK) {
    int b = n - i0 < MIX_BLOCK ? n - i0 : MIX_BLOCK;
    if (xn) {
      memcpy(xx, xn + i0, (size_t) b * sizeof(double));
    } else {
      block_norms(x, n, d, i0, b, xx);
    }
    if (d > 0) {
      block_product(x, n, i0, b, d, c, K, g);
    } else {
      memset(g, 0, (size_t) b * K * sizeof(double));
    }
    for (int k = 0; k < K; k++) {
      for (int i = 0; i < b; i++) {
        double v = (xx[i] - 2.0 * g[i + (size_t) k * b]) + cc[k];
        o[i0 + i + (size_t) k * n] = v > 0.0 ? v : 0.0;
      }
    }
  }
  UNPROTECT(1);
  return out;
}

/* what one E-step pass reads (ffi_mixture_estep()) */
typedef struct {
  const double *x;
  int n, d, K, diag, hard, stats;
  const double *mu, *v, *P, *Pm, *cc, *cst;
  double *lse;
} mix_ctx;

/* the block of rows [i0, i0 + b) (a mix_block_fn): log-densities into
 * lse (or the hard assignment), and with stats its sums added to a = (N,
 * S1, S2); w: scratch of b (1 + 3 K) values, and b d more for the
 * diagonal form */
static void estep_block(const void *ctx, int i0, int b, double *w,
                        double *a) {
  const mix_ctx *c = (const mix_ctx *) ctx;
  int n = c->n, d = c->d, K = c->K, diag = c->diag, hard = c->hard;
  const double *x = c->x, *cc = c->cc, *cst = c->cst, *v = c->v;
  double *xx = w, *g = w + b, *g2 = g + (size_t) b * K;
  double *R = g2 + (size_t) b * K;
  double *sq = diag && (c->stats || !hard) ? R + (size_t) b * K : NULL;
  double one = 1.0, zero = 0.0;
  block_norms(x, n, d, i0, b, xx);
  if (sq) {
    for (int l = 0; l < d; l++) {
      const double *xl = x + (size_t) l * n + i0;
      double *ql = sq + (size_t) l * b;
      for (int i = 0; i < b; i++) ql[i] = xl[i] * xl[i];
    }
  }
  if (d == 0) {
    memset(g, 0, (size_t) b * K * sizeof(double));
    memset(g2, 0, (size_t) b * K * sizeof(double));
  } else if (diag && !hard) {
    /* q = X^2 P' - 2 X Pm' + mm */
    F77_CALL(dgemm)("N", "T", &b, &K, &d, &one, sq, &b, c->P, &K, &zero, g2,
                    &b FCONE FCONE);
    block_product(x, n, i0, b, d, c->Pm, K, g);
  } else {
    block_product(x, n, i0, b, d, c->mu, K, g);
  }
  for (int i = 0; i < b; i++) {
    if (hard) {
      int best = 0;
      double bv = R_PosInf;
      for (int k = 0; k < K; k++) {
        double q = (xx[i] - 2.0 * g[i + (size_t) k * b]) + cc[k];
        if (q < 0.0) q = 0.0;
        if (q < bv) {
          bv = q;
          best = k;
        }
      }
      for (int k = 0; k < K; k++) R[i + (size_t) k * b] = k == best;
      continue;
    }
    double m = R_NegInf;
    for (int k = 0; k < K; k++) {
      size_t ik = i + (size_t) k * b;
      double q;
      if (diag) {
        q = (g2[ik] - 2.0 * g[ik]) + cc[k];
        if (q < 0.0) q = 0.0;
        q = -0.5 * q;
      } else {
        q = (xx[i] - 2.0 * g[ik]) + cc[k];
        if (q < 0.0) q = 0.0;
        q = -0.5 * q / v[k];
      }
      q += cst[k];
      R[ik] = q;
      if (q > m) m = q;
    }
    c->lse[i0 + i] = row_posterior(R, b, K, i, m);
  }
  if (!c->stats) return;
  double *N = a, *S1 = a + K, *S2 = S1 + (size_t) K * d;
  weight_sums(R, xx, b, K, N, diag ? NULL : S2);
  if (d > 0) {
    F77_CALL(dgemm)("T", "N", &K, &d, &b, &one, R, &b, x + i0, &n, &one,
                    S1, &K FCONE FCONE);
    if (diag) {
      F77_CALL(dgemm)("T", "N", &K, &d, &b, &one, R, &b, sq, &b, &one, S2,
                      &K FCONE FCONE);
    }
  }
}

/* .Call(ffi_mixture_estep, X, means, var, logw, opts)
 * X: n x d rows; means: K x d; var: K variances (spherical) or K x d
 * (diagonal); logw: K log weights; opts = c(form, hard, stats): form 1
 * spherical, 2 diagonal (the shape of S2); hard 1: the responsibilities
 * are the hard assignment to the nearest centre (the first at a tie; var
 * and logw unused), 0: the posterior of the mixture; stats 0: the
 * log-densities alone.
 * Returns list(lse = each row's log-density (empty when hard), N (K),
 * S1 (K x d) = R'X, S2 = R'||x||^2 (K; spherical) or R'X^2 (K x d)); N,
 * S1, S2 empty without stats. */
SEXP ffi_mixture_estep(SEXP X, SEXP means, SEXP var, SEXP logw, SEXP opts) {
  int n = Rf_nrows(X), d = Rf_ncols(X), K = Rf_nrows(means);
  if (!Rf_isReal(X) || !Rf_isReal(means) || !Rf_isReal(var) ||
      !Rf_isReal(logw) || !Rf_isInteger(opts) || Rf_length(opts) != 3 ||
      Rf_ncols(means) != d || Rf_length(logw) != K || K < 1) {
    Rf_error("ffi_mixture_estep: bad arguments");
  }
  const int *op = INTEGER(opts);
  int diag = op[0] == 2, hard = op[1] != 0, stats = op[2] != 0;
  if (!hard && Rf_length(var) != (diag ? (R_xlen_t) K * d : K)) {
    Rf_error("ffi_mixture_estep: var has the wrong length");
  }
  const double *x = REAL(X), *mu = REAL(means), *v = REAL(var);
  const double *lw = REAL(logw);
  const char *names[] = {"lse", "N", "S1", "S2", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP lse_s = PROTECT(Rf_allocVector(REALSXP, hard ? 0 : n));
  SEXP N_s = PROTECT(Rf_allocVector(REALSXP, stats ? K : 0));
  SEXP S1_s = PROTECT(stats ? Rf_allocMatrix(REALSXP, K, d)
                            : Rf_allocVector(REALSXP, 0));
  SEXP S2_s = PROTECT(!stats ? Rf_allocVector(REALSXP, 0)
                     : diag ? Rf_allocMatrix(REALSXP, K, d)
                            : Rf_allocVector(REALSXP, K));
  double *lse = hard ? NULL : REAL(lse_s), *N = REAL(N_s), *S1 = REAL(S1_s);
  double *S2 = REAL(S2_s);
  /* per component: the constant of its log-density, and for the
   * diagonal form the precisions P, P * mu and sum_j mu_j^2 P_j */
  double *cst = (double *) R_alloc((size_t) K, sizeof(double));
  double *cc = (double *) R_alloc((size_t) K, sizeof(double));
  double *P = NULL, *Pm = NULL;
  double l2pi = log(2.0 * M_PI);
  if (diag && !hard) {
    P = (double *) R_alloc((size_t) K * d + 1, sizeof(double));
    Pm = (double *) R_alloc((size_t) K * d + 1, sizeof(double));
  }
  for (int k = 0; k < K; k++) {
    double s = 0.0, ld = 0.0;
    for (int l = 0; l < d; l++) {
      size_t kl = k + (size_t) l * K;
      if (diag && !hard) {
        P[kl] = 1.0 / v[kl];
        Pm[kl] = P[kl] * mu[kl];
        s += Pm[kl] * mu[kl];
        ld += log(v[kl]);
      } else {
        s += mu[kl] * mu[kl];
      }
    }
    cc[k] = s;
    if (!hard) {
      if (!diag) ld = d * log(v[k]);
      cst[k] = lw[k] - 0.5 * (d * l2pi + ld);
    }
  }
  size_t s2n = (size_t) (diag ? K * d : K);
  size_t per = (size_t) K + (size_t) K * d + s2n;
  double *sums = stats ? (double *) R_alloc(per, sizeof(double)) : NULL;
  mix_ctx c = {x, n, d, K, diag, hard, stats, mu, v, P, Pm, cc, cst, lse};
  int B = n < MIX_BLOCK ? (n > 0 ? n : 1) : MIX_BLOCK;
  size_t wlen = (size_t) B * (1 + 3 * (size_t) K) +
    (diag && (stats || !hard) ? (size_t) B * d : 0) + 1;
  mix_chunks(n, (int64_t) n * K * (d > 0 ? d : 1), wlen, per, estep_block,
             &c, sums);
  if (stats) {
    memcpy(N, sums, (size_t) K * sizeof(double));
    memcpy(S1, sums + K, (size_t) K * d * sizeof(double));
    memcpy(S2, sums + K + (size_t) K * d, s2n * sizeof(double));
  }
  SET_VECTOR_ELT(out, 0, lse_s);
  SET_VECTOR_ELT(out, 1, N_s);
  SET_VECTOR_ELT(out, 2, S1_s);
  SET_VECTOR_ELT(out, 3, S2_s);
  UNPROTECT(5);
  return out;
}

/* what one low-rank E-step pass reads (ffi_mixture_estep_lowrank()) */
typedef struct {
  const double *x, *s, *xn;
  int n, d, K, q, stats;
  const double *mu, *U, *v, *coef, *mp, *cc, *cst;
  double *lse;
} lr_ctx;

/* The low-rank E-step of the block of rows [i0, i0 + b) (as
 * mixture_estep_lowrank()'s; R/family-mixture-lowrank.R): rows divided by
 * the column scale s (when s is given), squared distances to the centres,
 * projections P = U_k'(z - mu_k), the log-densities, responsibilities
 * and with stats their sums added to a = (N, S1 = R'Z, S2 = R'||z||^2, SU
 * = Z'(R_k P_k), rp) (the centres' share of SU, mu_k colSums(R_k P_k)', is
 * taken off once, at the end: rp gets those column sums). A
 * mix_block_fn; w: scratch of b (1 + 2 K + 2 K q) values, and b d more
 * when s is given */
static void lr_block(const void *ctx, int i0, int b, double *w, double *a) {
  const lr_ctx *c = (const lr_ctx *) ctx;
  int n = c->n, d = c->d, K = c->K, q = c->q, Kq = K * c->q;
  double *xx = w, *g = w + b, *R = g + (size_t) b * K;
  double *P = R + (size_t) b * K, *RP = P + (size_t) b * Kq;
  const double *A = c->x + i0;
  int lda = n;
  double one = 1.0, zero = 0.0;
  if (c->s) {
    double *Z = RP + (size_t) b * Kq;
    for (int l = 0; l < d; l++) {
      const double *xl = c->x + (size_t) l * n + i0;
      double *zl = Z + (size_t) l * b, sl = c->s[l];
      for (int i = 0; i < b; i++) zl[i] = xl[i] / sl;
    }
    A = Z;
    lda = b;
  }
  if (c->xn && !c->s) {
    memcpy(xx, c->xn + i0, (size_t) b * sizeof(double));
  } else {
    block_norms(A, lda, d, 0, b, xx);
  }
  F77_CALL(dgemm)("N", "T", &b, &K, &d, &one, A, &lda, c->mu, &K, &zero, g,
                  &b FCONE FCONE);
  F77_CALL(dgemm)("N", "N", &b, &Kq, &d, &one, A, &lda, c->U, &d, &zero, P,
                  &b FCONE FCONE);
  for (int kj = 0; kj < Kq; kj++) {
    double *pk = P + (size_t) kj * b, m = c->mp[kj];
    for (int i = 0; i < b; i++) pk[i] -= m;
  }
  for (int i = 0; i < b; i++) {
    double m = R_NegInf;
    for (int k = 0; k < K; k++) {
      size_t ik = i + (size_t) k * b;
      double dist = (xx[i] - 2.0 * g[ik]) + c->cc[k];
      if (dist < 0.0) dist = 0.0;
      double sp = 0.0;
      for (int j = 0; j < q; j++) {
        double p = P[i + (size_t) (k * q + j) * b];
        sp += c->coef[k * q + j] * p * p;
      }
      double L = -0.5 * (dist / c->v[k] - sp) + c->cst[k];
      R[ik] = L;
      if (L > m) m = L;
    }
    c->lse[i0 + i] = row_posterior(R, b, K, i, m);
  }
  if (!c->stats) return;
  double *N = a, *S1 = a + K, *S2 = S1 + (size_t) K * d, *SU = S2 + K;
  double *rp = SU + (size_t) d * Kq;
  weight_sums(R, xx, b, K, N, S2);
  for (int k = 0; k < K; k++) {
    const double *r = R + (size_t) k * b;
    for (int j = 0; j < q; j++) {
      size_t kj = (size_t) k * q + j;
      const double *p = P + kj * b;
      double *o = RP + kj * b, t = 0.0;
      for (int i = 0; i < b; i++) {
        o[i] = r[i] * p[i];
        t += o[i];
      }
      rp[kj] += t;
    }
  }
  F77_CALL(dgemm)("T", "N", &K, &d, &b, &one, R, &b, A, &lda, &one, S1, &K
                  FCONE FCONE);
  F77_CALL(dgemm)("T", "N", &d, &Kq, &b, &one, A, &lda, RP, &b, &one, SU, &d
                  FCONE FCONE);
}

/* .Call(ffi_mixture_estep_lowrank, X, means, basis, var, spikes, logw,
 * colscale, xx, stats)
 * X: n x d rows, divided by colscale (d values) here when colscale is
 * not NULL; means: K x d; basis: d x K q (component k's directions in
 * columns k q + 0..q-1); var: K spherical variances; spikes: K x q; logw:
 * K log weights (each log-determinant also takes 2 sum log colscale,
 * the map's share); xx: the rows' squared norms (NULL: formed here;
 * unused with colscale); opts = stats: 0 the log-densities alone.
 * Returns list(lse, N, S1 (K x d), S2 (K), SU (d x K q)) as
 * mixture_estep_lowrank() in R/family-mixture-lowrank.R. */
SEXP ffi_mixture_estep_lowrank(SEXP X, SEXP means, SEXP basis, SEXP var,
                               SEXP spikes, SEXP logw, SEXP colscale,
                               SEXP XX, SEXP opts) {
  int n = Rf_nrows(X), d = Rf_ncols(X), K = Rf_nrows(means);
  if (!Rf_isReal(X) || !Rf_isReal(means) || !Rf_isReal(basis) ||
      !Rf_isReal(var) || !Rf_isReal(spikes) || !Rf_isReal(logw) ||
      !Rf_isInteger(opts) || Rf_length(opts) != 1 || K < 1 || d < 1 ||
      Rf_ncols(means) != d || Rf_nrows(spikes) != K ||
      Rf_length(var) != K || Rf_length(logw) != K ||
      Rf_nrows(basis) != d ||
      Rf_ncols(basis) != K * Rf_ncols(spikes) || Rf_ncols(spikes) < 1 ||
      (!Rf_isNull(colscale) &&
       (!Rf_isReal(colscale) || Rf_length(colscale) != d)) ||
      (!Rf_isNull(XX) && (!Rf_isReal(XX) || Rf_length(XX) != n))) {
    Rf_error("ffi_mixture_estep_lowrank: bad arguments");
  }
  int q = Rf_ncols(spikes), Kq = K * q, stats = INTEGER(opts)[0] != 0;
  const double *x = REAL(X), *mu = REAL(means), *U = REAL(basis);
  const double *v = REAL(var), *sp = REAL(spikes), *lw = REAL(logw);
  const double *s = Rf_isNull(colscale) ? NULL : REAL(colscale);
  const char *names[] = {"lse", "N", "S1", "S2", "SU", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP lse_s = PROTECT(Rf_allocVector(REALSXP, n));
  SEXP N_s = PROTECT(Rf_allocVector(REALSXP, stats ? K : 0));
  SEXP S1_s = PROTECT(stats ? Rf_allocMatrix(REALSXP, K, d)
                            : Rf_allocVector(REALSXP, 0));
  SEXP S2_s = PROTECT(Rf_allocVector(REALSXP, stats ? K : 0));
  SEXP SU_s = PROTECT(stats ? Rf_allocMatrix(REALSXP, d, Kq)
                            : Rf_allocVector(REALSXP, 0));
  /* per component: ||mu_k||^2, the constant of its log-density, the
   * coefficients 1 / v_k - 1 / l_kj and the centres' projections */
  double *cc = (double *) R_alloc((size_t) K, sizeof(double));
  double *cst = (double *) R_alloc((size_t) K, sizeof(double));
  double *coef = (double *) R_alloc((size_t) Kq, sizeof(double));
  double *mp = (double *) R_alloc((size_t) Kq, sizeof(double));
  double ls = 0.0, l2pi = log(2.0 * M_PI);
  for (int l = 0; s && l < d; l++) ls += log(s[l]);
  for (int k = 0; k < K; k++) {
    double a = 0.0, ld = (d - q) * log(v[k]);
    for (int l = 0; l < d; l++) {
      double m = mu[k + (size_t) l * K];
      a += m * m;
    }
    cc[k] = a;
    for (int j = 0; j < q; j++) {
      double l = sp[k + (size_t) j * K];
      ld += log(l);
      coef[k * q + j] = 1.0 / v[k] - 1.0 / l;
      const double *u = U + (size_t) (k * q + j) * d;
      double t = 0.0;
      for (int c = 0; c < d; c++) t += mu[k + (size_t) c * K] * u[c];
      mp[k * q + j] = t;
    }
    cst[k] = lw[k] - 0.5 * (d * l2pi + ld + 2.0 * ls);
  }
  size_t per = (size_t) 2 * K + (size_t) K * d + (size_t) d * Kq +
    (size_t) Kq;
  double *sums = stats ? (double *) R_alloc(per, sizeof(double)) : NULL;
  lr_ctx c = {x, s, Rf_isNull(XX) ? NULL : REAL(XX), n, d, K, q, stats, mu,
              U, v, coef, mp, cc, cst, REAL(lse_s)};
  int B = n < MIX_BLOCK ? (n > 0 ? n : 1) : MIX_BLOCK;
  size_t wlen = (size_t) B * (1 + 2 * (size_t) K + 2 * (size_t) Kq) +
    (s ? (size_t) B * d : 0) + 1;
  mix_chunks(n, (int64_t) n * (K + 2 * Kq) * d, wlen, per, lr_block, &c,
             sums);
  if (stats) {
    double *N = REAL(N_s), *S1 = REAL(S1_s), *S2 = REAL(S2_s);
    double *SU = REAL(SU_s);
    const double *rp = sums + 2 * K + (size_t) K * d + (size_t) d * Kq;
    memcpy(N, sums, (size_t) K * sizeof(double));
    memcpy(S1, sums + K, (size_t) K * d * sizeof(double));
    memcpy(S2, sums + K + (size_t) K * d, (size_t) K * sizeof(double));
    memcpy(SU, sums + 2 * K + (size_t) K * d, (size_t) d * Kq * sizeof(double));
    /* SU_kj -= mu_k (sum_i r_ik P_ikj) */
    for (int k = 0; k < K; k++) {
      for (int j = 0; j < q; j++) {
        size_t kj = (size_t) k * q + j;
        double *o = SU + kj * d;
        for (int l = 0; l < d; l++) o[l] -= mu[k + (size_t) l * K] * rp[kj];
      }
    }
  }
  SET_VECTOR_ELT(out, 0, lse_s);
  SET_VECTOR_ELT(out, 1, N_s);
  SET_VECTOR_ELT(out, 2, S1_s);
  SET_VECTOR_ELT(out, 3, S2_s);
  SET_VECTOR_ELT(out, 4, SU_s);
  UNPROTECT(6);
  return out;
}
