/* The per-coordinate histograms of the `marginal` families (SPEC.md
 * section 7): the edges of each column's bins, each value's bin among
 * them, found once per row into a bin index (a byte a value, each row's
 * bins together), and from the index the counts of the bins by cell of
 * rows and each row's sum over the columns of a table's entry at its
 * bins. The columns (edges, counts) or blocks of rows (index, sums) are
 * shared among the package's threads; the sums run over the columns in
 * order, so they do not depend on the thread count. */
#include "prdcurve.h"
#include <string.h>
#include <math.h>
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The bin of v among the nb sorted edges e: the number of edges <= v
 * (0..nb), as findInterval(v, e). Branch-free: the halving step is a
 * conditional move, so the search does not stall on mispredicted
 * branches (the values fall in every bin alike). */
static inline int bin_of(const double *e, int nb, double v) {
  if (nb == 0) return 0;
  const double *b = e;
  int n = nb;
  while (n > 1) {
    int half = n >> 1;
    b = (b[half] <= v) ? b + half : b;
    n -= half;
  }
  return (int) (b - e) + (*b <= v);
}

/* A key of v whose unsigned order is the order of the values (-0 keyed
 * as +0, the two equal as values; no NaN), and the value of a key */
static inline uint64_t order_key(double v) {
  uint64_t u;
  if (v == 0) v = 0.0;
  memcpy(&u, &v, sizeof u);
  return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static inline double key_value(uint64_t k) {
  uint64_t u = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* Sort the N values w ascending, as a stable sort by value does (values
 * equal as doubles, -0 and +0, keep their order): a least significant
 * digit radix sort of their order_key()s a byte at a time (a byte that
 * every key shares is skipped), then the zeros' signs put back in their
 * order in w. Scratch: k and k2 (N keys each), sg (N bytes). */
static void sort_values(double *w, int N, uint64_t *k, uint64_t *k2,
                        unsigned char *sg) {
  int cnt[8][256];
  memset(cnt, 0, sizeof cnt);
  int nz = 0, neg = 0;
  for (int i = 0; i < N; i++) {
    if (w[i] == 0) {
      sg[nz] = (unsigned char) (signbit(w[i]) != 0);
      neg |= sg[nz++];
    }
    uint64_t key = order_key(w[i]);
    k[i] = key;
    for (int p = 0; p < 8; p++) cnt[p][(key >> (8 * p)) & 255]++;
  }
  uint64_t *src = k, *dst = k2;
  for (int p = 0; p < 8; p++) {
    int *c = cnt[p], sh = 8 * p;
    if (c[(src[0] >> sh) & 255] == N) continue;
    for (int b = 0, sum = 0; b < 256; b++) {
      int t = c[b];
      c[b] = sum;
      sum += t;
    }
    for (int i = 0; i < N; i++) dst[c[(src[i] >> sh) & 255]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  for (int i = 0; i < N; i++) w[i] = key_value(src[i]);
  if (neg) {
    /* the zeros are one run, keyed alike: their signs in w's order */
    int i = 0;
    while (w[i] != 0) i++;
    for (int j = 0; j < nz; j++) w[i + j] = sg[j] ? -0.0 : 0.0;
  }
}

/* The atom columns of marginal_atoms() (R/classifiers.R): in column l a
 * value z off the grid of one set is read as z + shift, a value on it as
 * z, so that the edges and bins keep the two kinds apart. On the grid:
 * the value as given, x = (z + off) / mult + centre (mult = 0: x = z;
 * standardize's exact grid scaling undone), a multiple of 2^e to a
 * relative 2^-30 (e = INT_MAX: x == 0). The same arithmetic as the R
 * definition (near_grid()). */
typedef struct {
  int e;
  double shift, off, mult, centre;
} atom_col;

static inline double atom_value(const atom_col *a, double z) {
  double x = a->mult != 0 ? (z + a->off) / a->mult + a->centre : z;
  int on;
  if (a->e == INT_MAX) {
    on = x == 0;
  } else {
    /* on the grid to a relative 2^-30 (marginal_grid_tol): the rounding
     * of a round trip through a scaling is not a difference of support */
    double q = ldexp(x, -a->e), aq = fabs(q);
    on = fabs(q - nearbyint(q)) <= ldexp(aq > 1 ? aq : 1, -30);
  }
  return on ? z : z + a->shift;
}

/* The columns' atom descriptions from `atoms` (NULL, or list(cols =
 * 1-based columns, e, shift, off, mult, centre), one entry per column
 * listed): an array of d pointers, NULL for a column without atoms;
 * R_alloc'ed (freed with the call). */
static const atom_col **atom_table(SEXP atoms, int d, const char *fn) {
  const atom_col **out = (const atom_col **) R_alloc((size_t) d, sizeof(atom_col *));
  for (int l = 0; l < d; l++) out[l] = NULL;
  if (Rf_isNull(atoms)) return out;
  if (!Rf_isNewList(atoms) || Rf_length(atoms) != 6)
    Rf_error("%s: atoms must be NULL or a list of 6", fn);
  SEXP cols = VECTOR_ELT(atoms, 0), e = VECTOR_ELT(atoms, 1);
  int na = Rf_length(cols);
  if (!Rf_isInteger(cols) || !Rf_isInteger(e) || Rf_length(e) != na)
    Rf_error("%s: bad atoms", fn);
  for (int k = 2; k < 6; k++) {
    SEXP v = VECTOR_ELT(atoms, k);
    if (!Rf_isReal(v) || Rf_length(v) != na) Rf_error("%s: bad atoms", fn);
  }
  atom_col *a = (atom_col *) R_alloc((size_t) (na > 0 ? na : 1), sizeof(atom_col));
  const int *pc = INTEGER_RO(cols), *pe = INTEGER_RO(e);
  for (int k = 0; k < na; k++) {
    if (pc[k] < 1 || pc[k] > d || pe[k] == NA_INTEGER)
      Rf_error("%s: atom column out of range", fn);
    a[k].e = pe[k];
    a[k].shift = REAL_RO(VECTOR_ELT(atoms, 2))[k];
    a[k].off = REAL_RO(VECTOR_ELT(atoms, 3))[k];
    a[k].mult = REAL_RO(VECTOR_ELT(atoms, 4))[k];
    a[k].centre = REAL_RO(VECTOR_ELT(atoms, 5))[k];
    out[pc[k] - 1] = a + k;
  }
  return out;
}

static inline double read_value(const atom_col *a, double z) {
  return a ? atom_value(a, z) : z;
}

/* The bins of the m values v among the nb sorted edges e, as bin_of()
 * value by value (the same comparisons, so the same bin for every
 * double), into out. Eight values are searched side by side: their
 * halving steps are independent, so they overlap instead of waiting on
 * each other's loads. */
static void bins_of(const double *e, int nb, const double *v, int m,
                    unsigned char *out) {
  int i = 0;
  if (nb > 0) {
    for (; i + 8 <= m; i += 8) {
      int p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (int n = nb; n > 1;) {
        int half = n >> 1;
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++) p[k] += half & -(e[p[k] + half] <= v[i + k]);
        n -= half;
      }
#pragma GCC unroll 8
      for (int k = 0; k < 8; k++) out[i + k] = (unsigned char) (p[k] + (e[p[k]] <= v[i + k]));
    }
  }
  for (; i < m; i++) out[i] = (unsigned char) bin_of(e, nb, v[i]);
}

/* Rows per block of the bin index's kernels, and columns per tile of
 * bin_index() (a tile's bins are found column by column, then written
 * row by row: INDEX_TILE bytes of a row at a time) */
#define INDEX_BLOCK 256
#define INDEX_TILE 64

/* The bin index of the rows r[0..m-1] (1-based) of X (n x d) among the
 * edges E (nb x d, nb <= 255), atom columns `at`: o (d x m) column i the
 * bins of row r[i]. Blocks of rows on `use` threads. */
static void bin_index(const double *X, int n, int d, const double *E, int nb,
                      const int *r, int m, const atom_col **at, int use,
                      unsigned char *o) {
  int nblock = (m + INDEX_BLOCK - 1) / INDEX_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nblock; b++) {
    int i0 = b * INDEX_BLOCK, len = m - i0 < INDEX_BLOCK ? m - i0 : INDEX_BLOCK;
    double v[INDEX_BLOCK];
    unsigned char tile[INDEX_TILE][INDEX_BLOCK];
    unsigned char *ob = o + (size_t) i0 * d;
    for (int l0 = 0; l0 < d; l0 += INDEX_TILE) {
      int w = d - l0 < INDEX_TILE ? d - l0 : INDEX_TILE;
      for (int c = 0; c < w; c++) {
        const double *col = X + (size_t) (l0 + c) * n;
        const atom_col *a = at[l0 + c];
        for (int i = 0; i < len; i++) v[i] = read_value(a, col[r[i0 + i] - 1]);
        bins_of(E + (size_t) (l0 + c) * nb, nb, v, len, tile[c]);
      }
      for (int i = 0; i < len; i++) {
        unsigned char *oi = ob + (size_t) i * d + l0;
        for (int c = 0; c < w; c++) oi[c] = tile[c][i];
      }
    }
  }
  (void) use;
}

/* .Call(ffi_bin_index, x, breaks, rows, atoms): the bins of the rows
 * `rows` (1-based) of x, column l against column l of breaks (nb sorted
 * edges, B = nb + 1 <= 256 bins): a raw d x m matrix, column i the bins
 * (0..nb, the number of edges at or below the value, as findInterval())
 * of row rows[i], so that each row's bins lie together for the kernels
 * that read them (ffi_index_counts(), ffi_index_scores(),
 * ffi_index_sums()); the atom columns' values read as atom_value(). */
SEXP ffi_bin_index(SEXP x, SEXP breaks, SEXP rows, SEXP atoms) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(breaks) ||
      !Rf_isMatrix(breaks) || !Rf_isInteger(rows))
    Rf_error("ffi_bin_index: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  int nb = Rf_nrows(breaks);
  if (Rf_ncols(breaks) != d)
    Rf_error("ffi_bin_index: breaks need one column per column of x");
  if (nb > 255) Rf_error("ffi_bin_index: at most 256 bins");
  const int *r = INTEGER_RO(rows);
  prd_check_rows(r, m, n, "ffi_bin_index");
  const atom_col **at = atom_table(atoms, d, "ffi_bin_index");
  SEXP out = PROTECT(prd_alloc_matrix(RAWSXP, d, m));
  int use = prd_threads_over((int64_t) m * d, (m + INDEX_BLOCK - 1) / INDEX_BLOCK);
  bin_index(REAL_RO(x), n, d, REAL_RO(breaks), nb, r, m, at, use, RAW(out));
  UNPROTECT(1);
  return out;
}

/* The bin index `index` (ffi_bin_index()'s d x n raw matrix) with B
 * bins, the columns `rows` of it (1-based) and their cells `cell`
 * (1..nc; NULL: none): its d, checked */
static int check_index(SEXP index, SEXP B, SEXP rows, SEXP cell, int nc,
                       const char *fn) {
  if (TYPEOF(index) != RAWSXP || !Rf_isMatrix(index) || !Rf_isInteger(rows) ||
      (!Rf_isNull(cell) && !Rf_isInteger(cell)))
    Rf_error("%s: bad argument types", fn);
  int nbin = Rf_asInteger(B), m = Rf_length(rows);
  if (nbin == NA_INTEGER || nbin < 1 || nbin > 256)
    Rf_error("%s: B must be in 1..256", fn);
  prd_check_rows(INTEGER_RO(rows), m, Rf_ncols(index), fn);
  if (!Rf_isNull(cell)) {
    if (Rf_length(cell) != m) Rf_error("%s: cell needs one entry per row", fn);
    const int *cl = INTEGER_RO(cell);
    for (int i = 0; i < m; i++) {
      if (cl[i] < 1 || cl[i] > nc) Rf_error("%s: cell out of range", fn);
    }
  }
  return Rf_nrows(index);
}

/* The counts o (nbin x d x cells, zeroed) of the rows r[0..m-1] of the
 * bin index ix (d x ., 1-based) in each bin of each column, by cell
 * cl[i]: each of `use` threads counts its own range of columns over
 * every row. */
static void index_counts(const unsigned char *ix, int d, int nbin,
                         const int *r, const int *cl, int m, int use, int *o) {
  size_t stride = (size_t) nbin * d;
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nt = omp_get_num_threads();
#endif
    int l0 = (int) ((int64_t) d * t / nt), l1 = (int) ((int64_t) d * (t + 1) / nt);
    for (int i = 0; i < m; i++) {
      const unsigned char *bi = ix + (size_t) (r[i] - 1) * d;
      int *oc = o + (size_t) (cl[i] - 1) * stride;
      for (int l = l0; l < l1; l++) oc[(size_t) l * nbin + bi[l]]++;
    }
  }
  (void) use;
}

/* .Call(ffi_index_counts, index, B, rows, cell, ncell): an integer array
 * B x d x ncell of the counts of the rows rows[i] of the bin index in
 * each bin of each column, by cell[i] (1..ncell) */
SEXP ffi_index_counts(SEXP index, SEXP B, SEXP rows, SEXP cell, SEXP ncell) {
  int nc = Rf_asInteger(ncell);
  if (nc == NA_INTEGER || nc < 1)
    Rf_error("ffi_index_counts: ncell must be positive");
  int d = check_index(index, B, rows, cell, nc, "ffi_index_counts");
  int nbin = Rf_asInteger(B), m = Rf_length(rows);
  SEXP out = PROTECT(Rf_alloc3DArray(INTSXP, nbin, d, nc));
  memset(INTEGER(out), 0, sizeof(int) * (size_t) nbin * d * nc);
  index_counts(RAW_RO(index), d, nbin, INTEGER_RO(rows), INTEGER_RO(cell), m,
               prd_threads_over((int64_t) m * d, d), INTEGER(out));
  UNPROTECT(1);
  return out;
}

/* Rows and columns of a tile of the row sums (tile_sums()): a tile of a
 * table (SUMS_COLS columns of nbin <= 256 doubles, at most 64 KB) stays in
 * the cache while the SUMS_ROWS rows read it; a row's running sum is kept
 * between tiles, so each row still adds its columns in order. */
#define SUMS_ROWS 64
#define SUMS_COLS 32

/* The sums over the columns, in order and in double, of the rows
 * row[0..len) (pointers to their bin codes, d each), row k reading its
 * own table tab[k] (nbin x d), into o[0..len): in tiles of columns, four
 * rows at a time (four independent sums). The one kernel of the bin
 * index's row sums (index_scores(), index_sums()). */
static void tile_sums(const unsigned char **row, const double **tab, int len,
                      int d, int nbin, double *o) {
  for (int k = 0; k < len; k++) o[k] = 0.0;
  for (int l0 = 0; l0 < d; l0 += SUMS_COLS) {
    int l1 = d - l0 < SUMS_COLS ? d : l0 + SUMS_COLS;
    int k = 0;
    for (; k + 4 <= len; k += 4) {
      const unsigned char *b0 = row[k], *b1 = row[k + 1], *b2 = row[k + 2],
                          *b3 = row[k + 3];
      const double *t0 = tab[k], *t1 = tab[k + 1], *t2 = tab[k + 2],
                   *t3 = tab[k + 3];
      double a0 = o[k], a1 = o[k + 1], a2 = o[k + 2], a3 = o[k + 3];
      for (int l = l0; l < l1; l++) {
        size_t c = (size_t) l * nbin;
        a0 += t0[c + b0[l]];
        a1 += t1[c + b1[l]];
        a2 += t2[c + b2[l]];
        a3 += t3[c + b3[l]];
      }
      o[k] = a0;
      o[k + 1] = a1;
      o[k + 2] = a2;
      o[k + 3] = a3;
    }
    for (; k < len; k++) {
      const unsigned char *bi = row[k];
      const double *tk = tab[k];
      double a = o[k];
      for (int l = l0; l < l1; l++) a += tk[(size_t) l * nbin + bi[l]];
      o[k] = a;
    }
  }
}

/* Each row r[i]'s (1-based, of the bin index ix, d x .) sum over the
 * columns l in order, in double, of T[b, l, cl[i]] (T nbin x d x cells),
 * b its bin in column l, into o[i]; blocks of rows on `use` threads, each
 * in tiles (tile_sums()) */
static void index_scores(const unsigned char *ix, int d, int nbin,
                         const int *r, const int *cl, int m, const double *T,
                         int use, double *o) {
  size_t stride = (size_t) nbin * d;
  int nblock = (m + INDEX_BLOCK - 1) / INDEX_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nblock; b++) {
    const unsigned char *row[SUMS_ROWS];
    const double *tab[SUMS_ROWS];
    int i1 = (b + 1) * INDEX_BLOCK < m ? (b + 1) * INDEX_BLOCK : m;
    for (int i0 = b * INDEX_BLOCK; i0 < i1; i0 += SUMS_ROWS) {
      int len = i1 - i0 < SUMS_ROWS ? i1 - i0 : SUMS_ROWS;
      for (int k = 0; k < len; k++) {
        row[k] = ix + (size_t) (r[i0 + k] - 1) * d;
        tab[k] = T + (size_t) (cl[i0 + k] - 1) * stride;
      }
      tile_sums(row, tab, len, d, nbin, o + i0);
    }
  }
  (void) use;
}

/* .Call(ffi_index_scores, index, B, rows, cell, table): for each rows[i],
 * the sum over the columns l (in order, in double) of table[b, l,
 * cell[i]], b its bin in column l; table B x d x ncell */
SEXP ffi_index_scores(SEXP index, SEXP B, SEXP rows, SEXP cell, SEXP table) {
  if (TYPEOF(index) != RAWSXP || !Rf_isMatrix(index) || !Rf_isReal(table))
    Rf_error("ffi_index_scores: bad argument types");
  int nbin = Rf_asInteger(B), d = Rf_nrows(index), m = Rf_length(rows);
  R_xlen_t nt = XLENGTH(table);
  if (nbin == NA_INTEGER || nbin < 1 || d < 1 || nt % ((R_xlen_t) nbin * d))
    Rf_error("ffi_index_scores: table needs B x d entries per cell");
  int nc = (int) (nt / ((R_xlen_t) nbin * d));
  check_index(index, B, rows, cell, nc, "ffi_index_scores");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  index_scores(RAW_RO(index), d, nbin, INTEGER_RO(rows), INTEGER_RO(cell), m,
               REAL_RO(table),
               prd_threads_over((int64_t) m * d, (m + INDEX_BLOCK - 1) / INDEX_BLOCK),
               REAL(out));
  UNPROTECT(1);
  return out;
}

/* Each row r[i]'s (1-based, of the bin index ix, d x .) sum over the
 * columns l of T[b, l] (T nbin x d, b its bin in column l), accumulated
 * in double over the columns in order, into o[i] (tile_sums()). The sums
 * only rank the candidates of the cross-validation: in long double (as
 * rowSums()) they took three times as long (17 against 5 ns a value at
 * 5,000 rows x 2,048 columns, 100 bins, on a loaded machine). On the
 * calling thread: the cross-validation calls it for every candidate
 * between short steps in R, and a team of threads per call would spin
 * against R's thread on a loaded machine (10 times slower at 5,000 x 256,
 * two busy cores). */
static void index_sums(const unsigned char *ix, int d, int nbin, const int *r,
                       int m, const double *T, double *o) {
  const unsigned char *row[SUMS_ROWS];
  const double *tab[SUMS_ROWS];
  for (int i0 = 0; i0 < m; i0 += SUMS_ROWS) {
    int len = m - i0 < SUMS_ROWS ? m - i0 : SUMS_ROWS;
    for (int k = 0; k < len; k++) {
      row[k] = ix + (size_t) (r[i0 + k] - 1) * d;
      tab[k] = T;
    }
    tile_sums(row, tab, len, d, nbin, o + i0);
  }
}

/* index_sums() for the other files (src/smooth.c), on the calling thread
 * as ffi_index_sums() */
void prd_index_sums(const unsigned char *ix, int d, int nbin, const int *r,
                    int m, const double *T, double *o) {
  index_sums(ix, d, nbin, r, m, T, o);
}

/* check_index() for the other files (src/smooth.c) */
int prd_check_index(SEXP index, SEXP B, SEXP rows, const char *fn) {
  return check_index(index, B, rows, R_NilValue, 0, fn);
}

/* .Call(ffi_index_sums, index, rows, table): for each rows[i], the sum
 * over the columns l of table[b, l] (table B x d, b its bin in column l),
 * accumulated in double over the columns in order */
SEXP ffi_index_sums(SEXP index, SEXP rows, SEXP table) {
  if (!Rf_isReal(table) || !Rf_isMatrix(table))
    Rf_error("ffi_index_sums: bad argument types");
  SEXP B = PROTECT(Rf_ScalarInteger(Rf_nrows(table)));
  int d = check_index(index, B, rows, R_NilValue, 0, "ffi_index_sums");
  int m = Rf_length(rows);
  if (Rf_ncols(table) != d) Rf_error("ffi_index_sums: table needs d columns");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  index_sums(RAW_RO(index), d, Rf_nrows(table), INTEGER_RO(rows), m,
             REAL_RO(table), REAL(out));
  UNPROTECT(2);
  return out;
}

/* .Call(ffi_bin_edges, x, y, rx, ry, bins, atoms): the edges of the `marginal`
 * family's bins, a (bins - 1) x d matrix: for each column, the rows rx of
 * x and ry of y pooled (N values) and sorted; with at most `bins` distinct
 * values, each value but the smallest is an edge (a bin per value; the
 * rest +Inf, which no value reaches), else the order statistics at ranks
 * ceiling(N j / bins), j = 1..bins - 1. The columns are shared among the
 * threads, each sorted in a buffer of its own. */
SEXP ffi_bin_edges(SEXP x, SEXP y, SEXP rx, SEXP ry, SEXP bins, SEXP atoms) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(y) || !Rf_isMatrix(y) ||
      !Rf_isInteger(rx) || !Rf_isInteger(ry))
    Rf_error("ffi_bin_edges: bad argument types");
  int nx = Rf_nrows(x), ny = Rf_nrows(y), d = Rf_ncols(x);
  if (Rf_ncols(y) != d) Rf_error("ffi_bin_edges: x and y need the same columns");
  int mx = Rf_length(rx), my = Rf_length(ry), B = Rf_asInteger(bins);
  const int *ix = INTEGER_RO(rx), *iy = INTEGER_RO(ry);
  prd_check_rows(ix, mx, nx, "ffi_bin_edges");
  prd_check_rows(iy, my, ny, "ffi_bin_edges");
  int N = mx + my;
  if (B < 2 || N < 1) Rf_error("ffi_bin_edges: bins must be at least 2, rows at least 1");
  const atom_col **at = atom_table(atoms, d, "ffi_bin_edges");
  int nr = B - 1;
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, nr, d));
  double *o = REAL(out);
  const double *X = REAL_RO(x), *Y = REAL_RO(y);
  int use = prd_threads_over((int64_t) N * d * 12, d);
  double *buf = (double *) R_alloc((size_t) N * use, sizeof(double));
  uint64_t *kbuf = (uint64_t *) R_alloc((size_t) N * use * 2, sizeof(uint64_t));
  unsigned char *sbuf = (unsigned char *) R_alloc((size_t) N * use, 1);
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
  {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    double *w = buf + (size_t) N * t;
    uint64_t *k = kbuf + (size_t) 2 * N * t;
    unsigned char *sg = sbuf + (size_t) N * t;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int l = 0; l < d; l++) {
      const double *cx = X + (size_t) l * nx, *cy = Y + (size_t) l * ny;
      double *ol = o + (size_t) l * nr;
      const atom_col *a = at[l];
      for (int i = 0; i < mx; i++) w[i] = read_value(a, cx[ix[i] - 1]);
      for (int i = 0; i < my; i++) w[mx + i] = read_value(a, cy[iy[i] - 1]);
      sort_values(w, N, k, k + N, sg);
      int k = 1; /* distinct values, up to B + 1 */
      for (int i = 1; i < N && k <= B; i++) k += w[i] != w[i - 1];
      if (k <= B) {
        int j = 0;
        for (int i = 1; i < N; i++) {
          if (w[i] != w[i - 1]) ol[j++] = w[i];
        }
        for (; j < nr; j++) ol[j] = R_PosInf;
      } else {
        for (int j = 0; j < nr; j++) {
          /* ceiling(N (j + 1) / B), 1-based */
          int64_t r = ((int64_t) N * (j + 1) + B - 1) / B;
          ol[j] = w[r - 1];
        }
      }
    }
  }
  UNPROTECT(1);
  return out;
}
