/* The smoothed marginal family's tables (R/family-smooth.R): each
 * column's bin counts smoothed by a Gaussian kernel, their log ratio and
 * noise (smooth_parts()), and each column's James-Stein shrinkage
 * (smooth_shrink()); its choice's held-out sums and its folds' tables
 * formed here from the counts, without a B x d matrix of R per step. The
 * values are those of R's expressions (the products by dgemm as R's %*%,
 * the sums in R's order and precision). */
#include "prdcurve.h"
#include <string.h>
#include <math.h>

/* The parts of the counts c1, c2 (B x d) of np real and nq generated rows
 * under the smoothing matrix k (B x B; NULL: the identity), into t, no, po
 * (each B x d): see ffi_smooth_parts(). The products go through the
 * scratch slot PRD_SCR_FIT. */
static void parts_into(const double *c1, const double *c2, int B, int d,
                       double n_p, double n_q, const double *k, double al,
                       double *to, double *no, double *po) {
  size_t len = (size_t) B * d;
  const double *sp = c1, *sq = c2, *vp = c1, *vq = c2;
  if (k && len > 0) {
    double *w = (double *) prd_scratch(PRD_SCR_FIT, len * 4 * sizeof(double));
    const void *vmax = vmaxget();
    double *K2 = (double *) R_alloc((size_t) B * B, sizeof(double));
    for (size_t i = 0; i < (size_t) B * B; i++) K2[i] = k[i] * k[i];
    double one = 1, zero = 0;
    F77_CALL(dgemm)("N", "N", &B, &d, &B, &one, k, &B, c1, &B, &zero, w, &B
                    FCONE FCONE);
    F77_CALL(dgemm)("N", "N", &B, &d, &B, &one, k, &B, c2, &B, &zero,
                    w + len, &B FCONE FCONE);
    F77_CALL(dgemm)("N", "N", &B, &d, &B, &one, K2, &B, c1, &B, &zero,
                    w + 2 * len, &B FCONE FCONE);
    F77_CALL(dgemm)("N", "N", &B, &d, &B, &one, K2, &B, c2, &B, &zero,
                    w + 3 * len, &B FCONE FCONE);
    vmaxset(vmax);
    sp = w;
    sq = w + len;
    vp = w + 2 * len;
    vq = w + 3 * len;
  }
  double lq = log(n_q + al * B), lp = log(n_p + al * B), nn = n_p + n_q;
  for (size_t i = 0; i < len; i++) {
    double ep = sp[i] + al, eq = sq[i] + al;
    to[i] = log(eq) - lq - log(ep) + lp;
    no[i] = vp[i] / (ep * ep) + vq[i] / (eq * eq);
    po[i] = (sp[i] + sq[i]) / nn;
  }
}

/* The shrinkage of the parts tv, nv, pv (B x d) toward 0 or, with `pool`,
 * toward the columns' mean per bin, into the table to (B x d) and the
 * factors wo (d); target: B doubles of work. See ffi_smooth_shrink(). */
static void shrink_into(const double *tv, const double *nv, const double *pv,
                        int B, int d, int pool, double *target, double *to,
                        double *wo) {
  for (int b = 0; b < B; b++) target[b] = 0;
  if (pool) {
    /* (each row's sum over the columns in order, as rowMeans() adds them;
     * a long double scalar: R_alloc() does not align for long double) */
    for (int b = 0; b < B; b++) {
      long double acc = 0;
      for (int j = 0; j < d; j++) acc += tv[b + (size_t) j * B];
      target[b] = (double) (acc / d);
    }
  }
  for (int j = 0; j < d; j++) {
    size_t o = (size_t) j * B;
    long double S = 0, N = 0;
    for (int b = 0; b < B; b++) {
      double dv = tv[o + b] - target[b];
      S += pv[o + b] * (dv * dv);
      N += pv[o + b] * nv[o + b];
    }
    double s = (double) S, n = (double) N, f = 0;
    if (s > 0) {
      f = 1 - n / s;
      if (f < 0) f = 0;
    }
    wo[j] = f;
    for (int b = 0; b < B; b++) to[o + b] = target[b] + (tv[o + b] - target[b]) * f;
  }
}

/* .Call(ffi_smooth_parts, cp, cq, np, nq, K, a, keep): the smoothed marginal
 * family's parts (R/family-smooth.R, smooth_parts()) from the bin counts
 * cp, cq (B x d) of np real and nq generated rows and the smoothing matrix
 * K (B x B; NULL: the identity): the smoothed counts s = K c, the log
 * ratios t = log(s_q + a) - log(nq + a B) - log(s_p + a) + log(np + a B),
 * the noise (K^2 c_p) / (s_p + a)^2 + (K^2 c_q) / (s_q + a)^2 (K^2
 * elementwise) and the pooled masses (s_p + s_q) / (np + nq): in the
 * order of operations of R's arithmetic, the products by dgemm as R's
 * %*%, so the values equal those of the same expressions in R. Returns
 * list(t, noise, pi), each B x d. The four products live in a scratch
 * slot kept between calls (a family's choice makes some 60 calls; at B =
 * 128 and d = 2,048 the slot's 8 MiB cost about 13 ms of page faults a
 * call when fresh); keep = FALSE (options(prdcurve.keep_scratch = FALSE))
 * frees the slots at the end. */
SEXP ffi_smooth_parts(SEXP cp, SEXP cq, SEXP np, SEXP nq, SEXP K, SEXP a,
                      SEXP keep) {
  if (!Rf_isReal(cp) || !Rf_isMatrix(cp) || !Rf_isReal(cq) ||
      !Rf_isMatrix(cq) || (!Rf_isNull(K) && (!Rf_isReal(K) || !Rf_isMatrix(K))))
    Rf_error("ffi_smooth_parts: bad argument types");
  int B = Rf_nrows(cp), d = Rf_ncols(cp);
  if (Rf_nrows(cq) != B || Rf_ncols(cq) != d)
    Rf_error("ffi_smooth_parts: cp and cq need the same shape");
  if (!Rf_isNull(K) && (Rf_nrows(K) != B || Rf_ncols(K) != B))
    Rf_error("ffi_smooth_parts: K must be B x B");
  SEXP t = PROTECT(Rf_allocMatrix(REALSXP, B, d));
  SEXP noise = PROTECT(Rf_allocMatrix(REALSXP, B, d));
  SEXP pi = PROTECT(Rf_allocMatrix(REALSXP, B, d));
  parts_into(REAL_RO(cp), REAL_RO(cq), B, d, Rf_asReal(np), Rf_asReal(nq),
             Rf_isNull(K) ? NULL : REAL_RO(K), Rf_asReal(a), REAL(t),
             REAL(noise), REAL(pi));
  const char *names[] = {"t", "noise", "pi", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SET_VECTOR_ELT(out, 0, t);
  SET_VECTOR_ELT(out, 1, noise);
  SET_VECTOR_ELT(out, 2, pi);
  if (Rf_asLogical(keep) == FALSE) prd_scratch_release();
  UNPROTECT(4);
  return out;
}

/* .Call(ffi_smooth_shrink, t, noise, pi, pooled): each column's
 * James-Stein shrinkage of the log ratios t (B x d) toward 0 or, with
 * `pooled`, toward the columns' mean per bin (R/family-smooth.R,
 * smooth_shrink()): dev = t - target, S = sum_b pi dev^2, N = sum_b pi
 * noise, w = max(0, 1 - N / S) where S > 0, else 0; the table target +
 * w dev. The means and sums accumulate in long double in the order of R's
 * rowMeans() and colSums(), so the values equal theirs. Returns
 * list(table, shrinkage). */
SEXP ffi_smooth_shrink(SEXP t, SEXP noise, SEXP pi, SEXP pooled) {
  if (!Rf_isReal(t) || !Rf_isMatrix(t) || !Rf_isReal(noise) ||
      !Rf_isReal(pi) || Rf_length(noise) != Rf_length(t) ||
      Rf_length(pi) != Rf_length(t))
    Rf_error("ffi_smooth_shrink: bad argument types");
  int B = Rf_nrows(t), d = Rf_ncols(t), pool = Rf_asLogical(pooled) == 1;
  double *target = (double *) R_alloc(B > 0 ? B : 1, sizeof(double));
  SEXP tab = PROTECT(Rf_allocMatrix(REALSXP, B, d));
  SEXP w = PROTECT(Rf_allocVector(REALSXP, d));
  shrink_into(REAL_RO(t), REAL_RO(noise), REAL_RO(pi), B, d, pool, target,
              REAL(tab), REAL(w));
  const char *names[] = {"table", "shrinkage", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SET_VECTOR_ELT(out, 0, tab);
  SET_VECTOR_ELT(out, 1, w);
  UNPROTECT(3);
  return out;
}

/* A B x B smoothing matrix of the list `kernels` (element i; NULL: the
 * identity), checked */
static const double *kernel_at(SEXP kernels, int i, int B, const char *fn) {
  SEXP k = VECTOR_ELT(kernels, i);
  if (Rf_isNull(k)) return NULL;
  if (!Rf_isReal(k) || !Rf_isMatrix(k) || Rf_nrows(k) != B || Rf_ncols(k) != B)
    Rf_error("%s: each kernel must be NULL or B x B", fn);
  return REAL_RO(k);
}

/* .Call(ffi_smooth_choice_sums, cp, cq, nx, ny, kernels, a, index, rx, ry,
 * keep): the held-out sums of the smoothed marginal family's choice
 * (R/family-smooth.R, smooth_choose()): cp, cq the double B x d x 2 bin
 * counts of each set's two inner folds, of nx[w] real and ny[w]
 * generated rows; for each kernel i (kernels: a list of B x B smoothing
 * matrices, NULL the identity) and target (toward 0, then pooled), the
 * table fitted on fold 3 - v (smooth_parts(), then smooth_shrink())
 * summed at the bins of the rows rx[[v]] of index[[1]] and ry[[v]] of
 * index[[2]] (ffi_index_sums()'s sums), for v = 1, 2. Returns a list of
 * 2 length(kernels) candidates (the kernels toward 0, then pooled), each
 * list(fold 1's sums (its real rows, then generated), fold 2's). The
 * parts and tables stay in buffers of this call; the sums run on the
 * calling thread, as ffi_index_sums() (threads spun against R's thread
 * and the BLAS's: at 20,000 x 64 the family took 0.8 against 0.3 s on
 * a loaded machine). */
SEXP ffi_smooth_choice_sums(SEXP cp, SEXP cq, SEXP nx, SEXP ny, SEXP kernels,
                            SEXP a, SEXP index, SEXP rx, SEXP ry, SEXP keep) {
  const char *fn = "ffi_smooth_choice_sums";
  if (!Rf_isReal(cp) || !Rf_isReal(cq) || !Rf_isReal(nx) || !Rf_isReal(ny) ||
      Rf_length(nx) != 2 || Rf_length(ny) != 2 || TYPEOF(kernels) != VECSXP ||
      TYPEOF(index) != VECSXP || Rf_length(index) != 2 ||
      TYPEOF(rx) != VECSXP || Rf_length(rx) != 2 || TYPEOF(ry) != VECSXP ||
      Rf_length(ry) != 2)
    Rf_error("%s: bad argument types", fn);
  SEXP dim = Rf_getAttrib(cp, R_DimSymbol);
  if (Rf_length(dim) != 3 || INTEGER_RO(dim)[2] != 2 ||
      XLENGTH(cq) != XLENGTH(cp))
    Rf_error("%s: cp and cq must be B x d x 2", fn);
  int B = INTEGER_RO(dim)[0], d = INTEGER_RO(dim)[1];
  SEXP Bs = PROTECT(Rf_ScalarInteger(B));
  for (int v = 0; v < 2; v++) {
    SEXP ix = VECTOR_ELT(index, v);
    if (prd_check_index(ix, Bs, VECTOR_ELT(v ? ry : rx, 0), fn) != d ||
        prd_check_index(ix, Bs, VECTOR_ELT(v ? ry : rx, 1), fn) != d)
      Rf_error("%s: the bin index needs d rows", fn);
  }
  int nk = Rf_length(kernels);
  for (int i = 0; i < nk; i++) kernel_at(kernels, i, B, fn);
  size_t len = (size_t) B * d;
  double al = Rf_asReal(a);
  /* each inner fold's parts t, noise, pi; a table; its factors */
  double *parts = (double *) R_alloc(len * 6 + 1, sizeof(double));
  double *tab = (double *) R_alloc(len + 1, sizeof(double));
  double *w = (double *) R_alloc((size_t) d + 1, sizeof(double));
  double *target = (double *) R_alloc((size_t) B + 1, sizeof(double));
  const unsigned char *ix[2] = {RAW_RO(VECTOR_ELT(index, 0)),
                                RAW_RO(VECTOR_ELT(index, 1))};
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2 * (R_xlen_t) nk));
  for (int i = 0; i < nk; i++) {
    const double *k = kernel_at(kernels, i, B, fn);
    for (int f = 0; f < 2; f++) {
      double *p = parts + 3 * len * f;
      parts_into(REAL_RO(cp) + len * f, REAL_RO(cq) + len * f, B, d,
                 REAL_RO(nx)[f], REAL_RO(ny)[f], k, al, p, p + len,
                 p + 2 * len);
    }
    for (int pool = 0; pool < 2; pool++) {
      SEXP cand = Rf_allocVector(VECSXP, 2);
      SET_VECTOR_ELT(out, i + (R_xlen_t) pool * nk, cand);
      for (int v = 0; v < 2; v++) {
        const double *p = parts + 3 * len * (1 - v); /* fitted on 3 - v */
        shrink_into(p, p + len, p + 2 * len, B, d, pool, target, tab, w);
        SEXP r1 = VECTOR_ELT(rx, v), r2 = VECTOR_ELT(ry, v);
        int m1 = Rf_length(r1), m2 = Rf_length(r2);
        SEXP s = Rf_allocVector(REALSXP, (R_xlen_t) m1 + m2);
        SET_VECTOR_ELT(cand, v, s);
        prd_index_sums(ix[0], d, B, INTEGER_RO(r1), m1, tab, REAL(s));
        prd_index_sums(ix[1], d, B, INTEGER_RO(r2), m2, tab, REAL(s) + m1);
      }
    }
  }
  if (Rf_asLogical(keep) == FALSE) prd_scratch_release();
  UNPROTECT(2);
  return out;
}

/* .Call(ffi_smooth_fold_tables, sp, sq, cp, cq, np, nq, K, a, pooled,
 * keep): the smoothed marginal family's table of each of the K folds
 * (R/family-smooth.R, smooth_marginal_cells()): fold v's counts the
 * totals sp, sq (double B x d) less the cell v + 1 of cp, cq (integer B x
 * d x (K + 1)), of np[v] real and nq[v] generated rows, smoothed by K
 * (B x B; NULL: the identity) and shrunk (toward the columns' mean with
 * `pooled`) as smooth_table(). Returns list(table = B x d x K, kept = the
 * columns with a positive factor in each fold). */
SEXP ffi_smooth_fold_tables(SEXP sp, SEXP sq, SEXP cp, SEXP cq, SEXP np,
                            SEXP nq, SEXP K, SEXP a, SEXP pooled, SEXP keep) {
  const char *fn = "ffi_smooth_fold_tables";
  if (!Rf_isReal(sp) || !Rf_isMatrix(sp) || !Rf_isReal(sq) ||
      !Rf_isInteger(cp) || !Rf_isInteger(cq) || !Rf_isReal(np) ||
      !Rf_isReal(nq) || Rf_length(np) != Rf_length(nq))
    Rf_error("%s: bad argument types", fn);
  int B = Rf_nrows(sp), d = Rf_ncols(sp), nf = Rf_length(np);
  size_t len = (size_t) B * d;
  if (XLENGTH(sq) != (R_xlen_t) len ||
      XLENGTH(cp) != (R_xlen_t) (len * (nf + 1)) ||
      XLENGTH(cq) != (R_xlen_t) (len * (nf + 1)))
    Rf_error("%s: the counts need B x d x (K + 1) entries", fn);
  SEXP kl = PROTECT(Rf_allocVector(VECSXP, 1));
  SET_VECTOR_ELT(kl, 0, K);
  const double *k = kernel_at(kl, 0, B, fn);
  int pool = Rf_asLogical(pooled) == 1;
  double al = Rf_asReal(a);
  SEXP tab = PROTECT(Rf_alloc3DArray(REALSXP, B, d, nf));
  SEXP kept = PROTECT(Rf_allocVector(INTSXP, nf));
  double *fit = (double *) R_alloc(len * 5 + 1, sizeof(double));
  double *w = (double *) R_alloc((size_t) d + 1, sizeof(double));
  double *target = (double *) R_alloc((size_t) B + 1, sizeof(double));
  const double *s1 = REAL_RO(sp), *s2 = REAL_RO(sq);
  for (int v = 0; v < nf; v++) {
    const int *c1 = INTEGER_RO(cp) + len * (v + 1),
              *c2 = INTEGER_RO(cq) + len * (v + 1);
    double *f1 = fit, *f2 = fit + len, *p = fit + 2 * len;
    /* (as R's double - integer) */
    for (size_t i = 0; i < len; i++) {
      f1[i] = s1[i] - (double) c1[i];
      f2[i] = s2[i] - (double) c2[i];
    }
    parts_into(f1, f2, B, d, REAL_RO(np)[v], REAL_RO(nq)[v], k, al, p,
               p + len, p + 2 * len);
    shrink_into(p, p + len, p + 2 * len, B, d, pool, target,
                REAL(tab) + len * v, w);
    int c = 0;
    for (int j = 0; j < d; j++) c += w[j] > 0;
    INTEGER(kept)[v] = c;
  }
  const char *names[] = {"table", "kept", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SET_VECTOR_ELT(out, 0, tab);
  SET_VECTOR_ELT(out, 1, kept);
  if (Rf_asLogical(keep) == FALSE) prd_scratch_release();
  UNPROTECT(4);
  return out;
}
