/* One-pass scans of a sample matrix outside the distance engine: the
 * input check (finite values, largest magnitude) and the per-row scores
 * of the simple classifiers that check a neighbour family (distance to a
 * centre, projection on a direction; the engine's squared norms about its
 * centre use the same loop), and for the fitted families the centring
 * of their rows and the row sums of their quadratic form. Each reads the
 * n x d column-major
 * matrix once, without the n x d temporaries the same in R allocates
 * (in R the two took 0.54 s and 0.71 s of a 5.9 s four-curve call at
 * 10,000 x 2,048, bench/results.md). */
#include "engine.h"
#include <limits.h>
#include <stdint.h>

/* over v[0..n): whether some value is not finite (*bad), and the largest
 * |v| over the finite ones (*mx); 4 doubles per step with the vector
 * extensions (the plain loop's branch kept it scalar: 64 ms for a
 * 10,000 x 2,048 matrix, twice per four-curve call) */
PRD_CLONES
static void scan_block(const double *v, size_t n, int *bad, double *mx) {
  size_t i = 0;
  double m = 0.0;
  int b = 0;
#ifdef PRD_VEC
  prd_v4d vm = {0.0, 0.0, 0.0, 0.0};
  prd_v4l vb = {0, 0, 0, 0};
  const prd_v4d big = {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX};
  const prd_v4l nosign = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  for (; i + 4 <= n; i += 4) {
    prd_v4d x;
    memcpy(&x, v + i, sizeof x);
    x = (prd_v4d) ((prd_v4l) x & nosign);      /* |x| */
    prd_v4l ok = (x <= big);                    /* false for Inf, NaN */
    vb |= ~ok;
    prd_v4l gt = (x > vm) & ok;
    vm = (prd_v4d) (((prd_v4l) x & gt) | ((prd_v4l) vm & ~gt));
  }
  for (int l = 0; l < 4; l++) {
    if (vb[l]) b = 1;
    if (vm[l] > m) m = vm[l];
  }
#endif
  for (; i < n; i++) {
    double a = fabs(v[i]);
    if (!(a <= DBL_MAX)) {
      b = 1;
      continue;
    }
    if (a > m) m = a;
  }
  *bad = b;
  *mx = m;
}

/* .Call(ffi_scan, x): c(all finite (1/0), largest |x| over the finite
 * values); blocks of 2^20 values shared among the engine's threads */
SEXP ffi_scan(SEXP x) {
  if (!Rf_isReal(x)) Rf_error("ffi_scan: `x` must be a double matrix");
  size_t n = (size_t) XLENGTH(x);
  const double *v = REAL_RO(x);
  size_t blk = (size_t) 1 << 20;
  int64_t nblk = (int64_t) ((n + blk - 1) / blk);
  int use = prd_threads_for((int64_t) n / 8, prd_threads_get());
  int bad = 0;
  double mx = 0.0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static) \
  reduction(|: bad) reduction(max: mx)
#endif
  for (int64_t k = 0; k < nblk; k++) {
    size_t i0 = (size_t) k * blk, len = n - i0 < blk ? n - i0 : blk;
    int b;
    double m;
    scan_block(v + i0, len, &b, &m);
    bad |= b;
    if (m > mx) mx = m;
  }
  (void) use;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
  REAL(out)[0] = !bad;
  REAL(out)[1] = mx;
  UNPROTECT(1);
  return out;
}

/* For m rows of the n x d column-major X (rows: 1-based positions, or
 * NULL for rows 1..m), dist[i] = sum_l (x_il - c_l)^2 and, unless w is
 * NULL, proj[i] = sum_l (x_il - c_l) w_l, each summed over l in order.
 * Also the engine's squared norms about its centre (neighbours.c). */
static void row_scores_block(const double *X, int n, int d, const int *rows,
                             int i0, int i1, const double *c,
                             const double *w, double *dist, double *proj) {
  for (int i = i0; i < i1; i++) dist[i] = 0.0;
  if (w)
    for (int i = i0; i < i1; i++) proj[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *col = X + (size_t) l * n;
    double cl = c[l];
    if (w) {
      double wl = w[l];
      for (int i = i0; i < i1; i++) {
        double v = col[rows ? rows[i] - 1 : i] - cl;
        dist[i] += v * v;
        proj[i] += v * wl;
      }
    } else if (rows) {
      for (int i = i0; i < i1; i++) {
        double v = col[rows[i] - 1] - cl;
        dist[i] += v * v;
      }
    } else {
      for (int i = i0; i < i1; i++) {
        double v = col[i] - cl;
        dist[i] += v * v;
      }
    }
  }
}

/* fn(ctx, i0, i1) over blocks of m rows, shared among the engine's
 * threads (`work` sets how many: prd_threads_for()): one block of at
 * most ROW_BLOCK_MAX rows per thread and turn, at least 512. A block
 * reads each column as one contiguous run of its rows, so long blocks
 * keep the hardware prefetcher streaming (blocks of 512 rows, 4 KB runs,
 * took 3.7 times a contiguous pass over the same data at 20,000 x 2,048;
 * bench/results.md) while the block's sums stay in the L2 cache. */
#define ROW_BLOCK_MAX 16384
static void row_blocks(int m, int64_t work, void (*fn)(void *, int, int),
                       void *ctx) {
  int use = prd_threads_for(work, prd_threads_get());
  int len = (m + use - 1) / (use > 0 ? use : 1);
  if (len > ROW_BLOCK_MAX) len = ROW_BLOCK_MAX;
  if (len < 512) len = 512;
  int nblk = (m + len - 1) / len;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nblk; b++) {
    int i0 = b * len, i1 = m - i0 < len ? m : i0 + len;
    fn(ctx, i0, i1);
  }
  (void) use;
}

typedef struct {
  const double *X, *c, *w;
  int n, d;
  const int *rows;
  double *dist, *proj;
} scores_ctx;

static void scores_fn(void *p, int i0, int i1) {
  scores_ctx *a = (scores_ctx *) p;
  row_scores_block(a->X, a->n, a->d, a->rows, i0, i1, a->c, a->w, a->dist,
                   a->proj);
}

/* (in row blocks shared among threads: each row's sums in the order of
 * l, the same values whatever the count) */
void prd_row_scores(const double *X, int n, int d, const int *rows, int m,
                    const double *c, const double *w, double *dist,
                    double *proj) {
  scores_ctx a = {X, c, w, n, d, rows, dist, proj};
  row_blocks(m, (int64_t) m * d / 8, scores_fn, &a);
}

typedef struct {
  const double *X, *w1, *w2;
  int n, d;
  double *k1, *k2;
} keys_ctx;

static void keys_fn(void *p, int i0, int i1) {
  keys_ctx *a = (keys_ctx *) p;
  for (int i = i0; i < i1; i++) a->k1[i] = a->k2[i] = 0.0;
  for (int l = 0; l < a->d; l++) {
    const double *col = a->X + (size_t) l * a->n;
    double u = a->w1[l], v = a->w2[l];
    for (int i = i0; i < i1; i++) {
      a->k1[i] += col[i] * u;
      a->k2[i] += col[i] * v;
    }
  }
}

/* .Call(ffi_row_keys, x): the n x 2 matrix of two fixed projections of
 * the rows of the n x d matrix x, weights 1 + cos(2.399963229728653 l)
 * and 1 + sin(0.7548776662466927 l), l = 1..d (golden angles), summed
 * over l in order (equal rows get equal keys); one pass over x, in row
 * blocks shared among the engine's threads. */
SEXP ffi_row_keys(SEXP x) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x))
    Rf_error("ffi_row_keys: `x` must be a double matrix");
  int n = Rf_nrows(x), d = Rf_ncols(x);
  double *w1 = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
  double *w2 = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
  for (int l = 0; l < d; l++) {
    w1[l] = 1.0 + cos((l + 1) * 2.399963229728653);
    w2[l] = 1.0 + sin((l + 1) * 0.7548776662466927);
  }
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, n, 2));
  keys_ctx a = {REAL_RO(x), w1, w2, n, d, REAL(out), REAL(out) + n};
  row_blocks(n, (int64_t) n * d / 8, keys_fn, &a);
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_row_scores, x, rows, centre, w): prd_row_scores() of the rows
 * `rows` of x (1-based). Returns list(dist, proj); w NULL: no projection
 * (proj NULL; dist the same values). */
/* Every one of the m 1-based row indices r in 1..n, else an R error
 * naming the entry point `fn` and the first bad position */
void prd_check_rows(const int *r, int m, int n, const char *fn) {
  for (int i = 0; i < m; i++)
    if (r[i] == NA_INTEGER || r[i] < 1 || r[i] > n)
      Rf_error("%s: row %d out of range", fn, i + 1);
}

/* The arguments of an entry point (x, centre, rows): x a double matrix,
 * centre ncol(x) doubles, rows 1-based integer indices into x's rows;
 * else an R error naming `fn` */
void prd_check_centre_rows(SEXP x, SEXP centre, SEXP rows, const char *fn) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(centre) ||
      !Rf_isInteger(rows))
    Rf_error("%s: bad argument types", fn);
  if (Rf_length(centre) != Rf_ncols(x))
    Rf_error("%s: `centre` must have ncol(x) values", fn);
  prd_check_rows(INTEGER_RO(rows), Rf_length(rows), Rf_nrows(x), fn);
}

SEXP ffi_row_scores(SEXP x, SEXP rows, SEXP centre, SEXP w) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isInteger(rows) ||
      !Rf_isReal(centre) || !(Rf_isNull(w) || Rf_isReal(w)))
    Rf_error("ffi_row_scores: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  if (Rf_length(centre) != d || (!Rf_isNull(w) && Rf_length(w) != d))
    Rf_error("ffi_row_scores: `centre` and `w` must have ncol(x) values");
  const int *r = INTEGER_RO(rows);
  prd_check_rows(r, m, n, "ffi_row_scores");
  SEXP dist = PROTECT(Rf_allocVector(REALSXP, m));
  SEXP proj = PROTECT(Rf_isNull(w) ? R_NilValue : Rf_allocVector(REALSXP, m));
  prd_row_scores(REAL_RO(x), n, d, r, m, REAL_RO(centre),
                 Rf_isNull(w) ? NULL : REAL_RO(w), REAL(dist),
                 Rf_isNull(w) ? NULL : REAL(proj));
  SEXP out = prd_named_pair(dist, "dist", proj, "proj");
  UNPROTECT(2);
  return out;
}

/* list(<na> = a, <nb> = b) (a and b protected while the list is made) */
SEXP prd_named_pair(SEXP a, const char *na, SEXP b, const char *nb) {
  PROTECT(a);
  PROTECT(b);
  const char *names[] = {na, nb, ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SET_VECTOR_ELT(out, 0, a);
  SET_VECTOR_ELT(out, 1, b);
  UNPROTECT(3);
  return out;
}

/* Columns l0..l1 - 1 of the rows r[i0 .. i0 + mb - 1] (1-based rows of
 * the n x d matrix X; r NULL: rows i0..) centred on c into dst, mb x d
 * column-major (column l at dst + l mb): the one centring of rows by
 * index (ffi_centre(), ffi_standardize(), the blocks of src/moments.c).
 * One thread. */
void prd_centre_cols(const double *X, int n, const int *r, int i0, int mb,
                     const double *c, int l0, int l1, double *dst) {
  for (int l = l0; l < l1; l++) {
    const double *col = X + (size_t) l * n;
    double *o = dst + (size_t) l * mb;
    double cl = c[l];
    if (r)
      for (int i = 0; i < mb; i++) o[i] = col[r[i0 + i] - 1] - cl;
    else
      for (int i = 0; i < mb; i++) o[i] = col[i0 + i] - cl;
  }
}

/* .Call(ffi_centre, x, centre, rows): the m x d matrix x[rows, ] - centre
 * (centre[l] taken from column l; rows 1-based, NULL for every row), the
 * same doubles as R's x[rows, ] - rep(centre, each = m) without the copy
 * of the rows or the m x d vector of the centre; columns shared among the
 * engine's threads. With `scale` (d values, or NULL), each column is then
 * divided by scale[l]: the same doubles as sweep(sweep(x, 2, centre), 2,
 * scale, "/") without sweep()'s two n x d arrays of the statistics. */
static SEXP centre_scale(SEXP x, SEXP centre, SEXP rows, SEXP scale,
                         SEXP mult, SEXP offset, const char *fn) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(centre) ||
      !(Rf_isNull(rows) || Rf_isInteger(rows)) ||
      !(Rf_isNull(scale) || Rf_isReal(scale)) ||
      !(Rf_isNull(mult) || Rf_isReal(mult)) ||
      !(Rf_isNull(offset) || Rf_isReal(offset)) ||
      (!Rf_isNull(mult) && Rf_isNull(offset)))
    Rf_error("%s: bad argument types", fn);
  int n = Rf_nrows(x), d = Rf_ncols(x);
  if (Rf_length(centre) != d || (!Rf_isNull(scale) && Rf_length(scale) != d) ||
      (!Rf_isNull(mult) && Rf_length(mult) != d) ||
      (!Rf_isNull(offset) && Rf_length(offset) != d))
    Rf_error("%s: `centre`, `scale`, `mult` and `offset` must have ncol(x) values", fn);
  const int *r = Rf_isNull(rows) ? NULL : INTEGER_RO(rows);
  const double *sc = Rf_isNull(scale) ? NULL : REAL_RO(scale);
  const double *mu = Rf_isNull(mult) ? NULL : REAL_RO(mult);
  const double *of = Rf_isNull(offset) ? NULL : REAL_RO(offset);
  int m = r ? Rf_length(rows) : n;
  if (r) prd_check_rows(r, m, n, fn);
  SEXP out = PROTECT(prd_alloc_matrix(REALSXP, m, d));
  const double *X = REAL_RO(x), *c = REAL_RO(centre);
  double *o = REAL(out);
  int use = prd_threads_for((int64_t) m * d / 8, prd_threads_get());
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int l = 0; l < d; l++) {
    double *dst = o + (size_t) l * m;
    prd_centre_cols(X, n, r, 0, m, c, l, l + 1, o);
    if (mu && mu[l] != 0) {
      /* a column on a grid (R/validate.R, scale_grid()): every step exact */
      double ml = mu[l], ol = of[l];
      for (int i = 0; i < m; i++) dst[i] = dst[i] * ml - ol;
    } else if (sc && of && !mu) {
      /* (ffi_scale_shift(): x / scale - offset) */
      double sl = sc[l], ol = of[l];
      for (int i = 0; i < m; i++) dst[i] = dst[i] / sl - ol;
    } else if (sc) {
      double sl = sc[l];
      for (int i = 0; i < m; i++) dst[i] = dst[i] / sl;
    }
  }
  (void) use;
  UNPROTECT(1);
  return out;
}

SEXP ffi_centre(SEXP x, SEXP centre, SEXP rows) {
  return centre_scale(x, centre, rows, R_NilValue, R_NilValue, R_NilValue,
                      "ffi_centre");
}

/* .Call(ffi_scale_shift, x, rows, scale, offset): the m x d matrix
 * x[rows, ] / scale - offset column by column (rows 1-based, NULL for
 * every row), the same doubles as R's x[rows, ] / s - rep(o, each = m)
 * for scale = rep(s, d) and offset = o, without the copy of the rows, the
 * quotient and the m x d vector of the offset (the mixture family's map,
 * R/family-mixture.R: 4 arrays of the rows' size become 1). */
SEXP ffi_scale_shift(SEXP x, SEXP rows, SEXP scale, SEXP offset) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(scale) ||
      !Rf_isReal(offset))
    Rf_error("ffi_scale_shift: bad argument types");
  /* (x - 0 is x itself, -0 and NaN included) */
  SEXP zero = PROTECT(Rf_allocVector(REALSXP, Rf_ncols(x)));
  memset(REAL(zero), 0, sizeof(double) * (size_t) Rf_ncols(x));
  SEXP out = centre_scale(x, zero, rows, scale, R_NilValue, offset,
                          "ffi_scale_shift");
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_row_sq_norms, x): rowSums(x^2) without the n x d array of the
 * squares: each square in double, summed in long double over the columns
 * in their order, as R's rowSums() does, so the same doubles; blocks of
 * 256 rows shared among the engine's threads. */
SEXP ffi_row_sq_norms(SEXP x) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x))
    Rf_error("ffi_row_sq_norms: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  const double *X = REAL_RO(x);
  double *o = REAL(out);
  int nb = (n + 255) / 256;
  int use = prd_threads_over((int64_t) n * d, nb);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nb; b++) {
    int i0 = 256 * b, mb = n - i0 < 256 ? n - i0 : 256;
    long double acc[256];
    for (int i = 0; i < mb; i++) acc[i] = 0;
    for (int l = 0; l < d; l++) {
      const double *col = X + (size_t) l * n + i0;
      for (int i = 0; i < mb; i++) {
        double t = col[i] * col[i];
        acc[i] += t;
      }
    }
    for (int i = 0; i < mb; i++) o[i0 + i] = (double) acc[i];
  }
  (void) use;
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_standardize, x, centre, scale, mult, offset): (x - centre) /
 * scale column by column, every row (standardize = "real", R/validate.R);
 * a column l with mult[l] != 0 (mult NULL: none) is instead (x - centre)
 * * mult - offset, the exact steps of a column on a grid. */
SEXP ffi_standardize(SEXP x, SEXP centre, SEXP scale, SEXP mult,
                     SEXP offset) {
  return centre_scale(x, centre, R_NilValue, scale, mult, offset,
                      "ffi_standardize");
}

/* the exponent of the lowest set bit of v != 0, finite: v is an odd
 * multiple of 2^result */
static inline int low_bit(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int field = (int) ((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
  if (field) mant |= UINT64_C(1) << 52; /* a normal number's hidden bit */
#if defined(__GNUC__)
  int tz = __builtin_ctzll(mant);
#else
  int tz = 0;
  while (!(mant & 1u)) {
    mant >>= 1;
    tz++;
  }
#endif
  return (field ? field : 1) - 1075 + tz;
}

/* .Call(ffi_col_grid, x, max_bits): for each column of x, whether its
 * values lie on a grid: all multiples of one power of two 2^e and less
 * than 2^max_bits steps 2^e apart (whole numbers, counts, codes). Returns
 * list(e, lo, hi): e the exponent of the lowest set bit over the
 * column's nonzero values (INT_MAX for a column of zeros), lo and hi its
 * smallest and largest values; e = NA for a column not on such a grid
 * (or with a value that is not finite), whose scan stops there
 * (continuous data: after a few values). The columns shared among the
 * engine's threads. */
SEXP ffi_col_grid(SEXP x, SEXP max_bits) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isInteger(max_bits) ||
      Rf_length(max_bits) != 1)
    Rf_error("ffi_col_grid: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x);
  double span = ldexp(1.0, INTEGER_RO(max_bits)[0]);
  SEXP e = PROTECT(Rf_allocVector(INTSXP, d));
  SEXP lo = PROTECT(Rf_allocVector(REALSXP, d));
  SEXP hi = PROTECT(Rf_allocVector(REALSXP, d));
  const double *X = REAL_RO(x);
  int *pe = INTEGER(e);
  double *pl = REAL(lo), *ph = REAL(hi);
  int use = prd_threads_over((int64_t) n * d, d);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int l = 0; l < d; l++) {
    const double *col = X + (size_t) l * n;
    int emin = INT_MAX, off = 0;
    double a = R_PosInf, b = R_NegInf;
    for (int i = 0; i < n; i++) {
      double v = col[i];
      if (!isfinite(v)) {
        off = 1;
        break;
      }
      if (v < a) a = v;
      if (v > b) b = v;
      if (v != 0) {
        int low = low_bit(v);
        if (low < emin) emin = low;
      }
      /* (b - a) / 2^emin steps, or more: off the grid for good */
      if (emin != INT_MAX && !(ldexp(b - a, -emin) < span)) {
        off = 1;
        break;
      }
    }
    pe[l] = off ? NA_INTEGER : emin;
    pl[l] = a;
    ph[l] = b;
  }
  (void) use;
  SEXP res = PROTECT(Rf_allocVector(VECSXP, 3));
  SEXP nm = PROTECT(Rf_allocVector(STRSXP, 3));
  SET_VECTOR_ELT(res, 0, e);
  SET_VECTOR_ELT(res, 1, lo);
  SET_VECTOR_ELT(res, 2, hi);
  SET_STRING_ELT(nm, 0, Rf_mkChar("e"));
  SET_STRING_ELT(nm, 1, Rf_mkChar("lo"));
  SET_STRING_ELT(nm, 2, Rf_mkChar("hi"));
  Rf_setAttrib(res, R_NamesSymbol, nm);
  UNPROTECT(5);
  return res;
}

/* The means of the d columns of X (n x d, column-major) over m rows
 * (1-based indices, or the first m rows when rows is NULL), each column
 * summed in the order of the rows (in long double when `ld`, as R's
 * colMeans()), the columns shared among the engine's threads: the same
 * values whatever their count. */
/* the sums of columns l0..l0+3 (or fewer, `w`): interleaved, so that the
 * four chains of additions run side by side, each in the order of the
 * rows (the same bits as one column at a time) */
#define COL_SUMS(T)                                                        \
  do {                                                                     \
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                      \
    const double *c0 = X + (size_t) l0 * n, *c1 = c0 + (w > 1 ? n : 0),    \
                 *c2 = c0 + (w > 2 ? 2 * (size_t) n : 0),                  \
                 *c3 = c0 + (w > 3 ? 3 * (size_t) n : 0);                  \
    for (int i = 0; i < m; i++) {                                          \
      size_t r = rows ? (size_t) rows[i] - 1 : (size_t) i;                 \
      s0 += c0[r]; s1 += c1[r]; s2 += c2[r]; s3 += c3[r];                  \
    }                                                                      \
    T v[4] = {s0, s1, s2, s3};                                             \
    for (int j = 0; j < w; j++) out[l0 + j] = (double) (v[j] / m);         \
  } while (0)

void prd_col_means(const double *X, int n, int d, const int *rows, int m,
                   int ld, double *out) {
  int ng = (d + 3) / 4;
  int use = prd_threads_over((int64_t) m * d, ng);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int g = 0; g < ng; g++) {
    int l0 = 4 * g, w = d - l0 < 4 ? d - l0 : 4;
    if (ld) COL_SUMS(long double);
    else COL_SUMS(double);
  }
  (void) use;
}
#undef COL_SUMS

/* .Call(ffi_col_means, x, rows): colMeans(x[rows, ]) without the copy (the
 * same long double sums in the order of the rows as R's colMeans()) */
SEXP ffi_col_means(SEXP x, SEXP rows) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isInteger(rows))
    Rf_error("ffi_col_means: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  const int *r = INTEGER_RO(rows);
  prd_check_rows(r, m, n, "ffi_col_means");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, d));
  prd_col_means(REAL_RO(x), n, d, r, m, 1, REAL(out));
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_col_ss, x, centre, rows): for each column l, the sum over the
 * rows of (x[r, l] - centre[l])^2: each square in double, summed in long
 * double in the order of the rows, so the same doubles as R's
 * colSums(C * C) with C = ffi_centre(x, centre, rows), without the two
 * m x d matrices; the columns shared among the engine's threads. */
SEXP ffi_col_ss(SEXP x, SEXP centre, SEXP rows) {
  prd_check_centre_rows(x, centre, rows, "ffi_col_ss");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  const int *r = INTEGER_RO(rows);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, d));
  const double *X = REAL_RO(x), *c = REAL_RO(centre);
  double *o = REAL(out);
  int use = prd_threads_over((int64_t) m * d, d);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int l = 0; l < d; l++) {
    const double *col = X + (size_t) l * n;
    double cl = c[l];
    long double s = 0;
    for (int i = 0; i < m; i++) {
      double t = col[r[i] - 1] - cl;
      s += t * t;
    }
    o[l] = (double) s;
  }
  (void) use;
  UNPROTECT(1);
  return out;
}

typedef struct {
  const double *A, *B;
  int n, d;
  double *out;
} dot_ctx;

static void dot_fn(void *p, int i0, int i1) {
  dot_ctx *a = (dot_ctx *) p;
  for (int i = i0; i < i1; i++) a->out[i] = 0.0;
  for (int l = 0; l < a->d; l++) {
    const double *ca = a->A + (size_t) l * a->n, *cb = a->B + (size_t) l * a->n;
    for (int i = i0; i < i1; i++) a->out[i] += ca[i] * cb[i];
  }
}

/* .Call(ffi_row_dot, A, B): the n values sum_l A[i, l] B[i, l] of two
 * n x d matrices (rowSums(A * B) without the n x d product), each summed
 * in the order of l, in row blocks shared among the engine's threads. */
SEXP ffi_row_dot(SEXP A, SEXP B) {
  if (!Rf_isReal(A) || !Rf_isMatrix(A) || !Rf_isReal(B) || !Rf_isMatrix(B))
    Rf_error("ffi_row_dot: bad argument types");
  int n = Rf_nrows(A), d = Rf_ncols(A);
  if (Rf_nrows(B) != n || Rf_ncols(B) != d)
    Rf_error("ffi_row_dot: `A` and `B` must have the same dimensions");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  dot_ctx a = {REAL_RO(A), REAL_RO(B), n, d, REAL(out)};
  row_blocks(n, (int64_t) n * d / 8, dot_fn, &a);
  UNPROTECT(1);
  return out;
}
