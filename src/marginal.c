/* The per-coordinate histograms of the `marginal` family (SPEC.md
 * section 7): each value's bin among its column's edges, the counts of
 * the bins by cell of rows, and each row's sum over the columns of a
 * table's entry at its bins. The columns (counts) or blocks of rows
 * (sums) are shared among the package's threads; the sums run over the
 * columns in order, so they do not depend on the thread count. */
#include "prdcurve.h"
#include <string.h>
#include <stdlib.h>
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

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
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

static void check_bins(SEXP x, SEXP breaks, SEXP rows, SEXP cell,
                       const char *fn) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(breaks) ||
      !Rf_isMatrix(breaks) || !Rf_isInteger(rows) || !Rf_isInteger(cell))
    Rf_error("%s: bad argument types", fn);
  if (Rf_ncols(breaks) != Rf_ncols(x))
    Rf_error("%s: breaks need one column per column of x", fn);
  if (Rf_length(cell) != Rf_length(rows))
    Rf_error("%s: cell needs one entry per row", fn);
  prd_check_rows(INTEGER_RO(rows), Rf_length(rows), Rf_nrows(x), fn);
}

/* .Call(ffi_bin_counts, x, breaks, rows, cell, ncell, atoms): an integer
 * array B x d x ncell (B = nrow(breaks) + 1) of the counts of rows[i] of
 * x in each bin of each column, by cell[i] (1..ncell); the atom columns'
 * values read as atom_value() */
SEXP ffi_bin_counts(SEXP x, SEXP breaks, SEXP rows, SEXP cell, SEXP ncell,
                    SEXP atoms) {
  check_bins(x, breaks, rows, cell, "ffi_bin_counts");
  const atom_col **at = atom_table(atoms, Rf_ncols(x), "ffi_bin_counts");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  int nb = Rf_nrows(breaks), B = nb + 1, nc = Rf_asInteger(ncell);
  const int *r = INTEGER_RO(rows), *cl = INTEGER_RO(cell);
  if (nc < 1) Rf_error("ffi_bin_counts: ncell must be positive");
  for (int i = 0; i < m; i++) {
    if (cl[i] < 1 || cl[i] > nc) Rf_error("ffi_bin_counts: cell out of range");
  }
  SEXP out = PROTECT(Rf_alloc3DArray(INTSXP, B, d, nc));
  int *o = INTEGER(out);
  memset(o, 0, sizeof(int) * (size_t) B * d * nc);
  const double *X = REAL_RO(x), *E = REAL_RO(breaks);
  size_t stride = (size_t) B * d;
  int use = prd_threads_over((int64_t) m * d, d);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int l = 0; l < d; l++) {
    const double *col = X + (size_t) l * n, *e = E + (size_t) l * nb;
    int *ol = o + (size_t) l * B;
    const atom_col *a = at[l];
    if (a) {
      for (int i = 0; i < m; i++) {
        ol[(size_t) (cl[i] - 1) * stride +
           bin_of(e, nb, atom_value(a, col[r[i] - 1]))]++;
      }
    } else {
      for (int i = 0; i < m; i++) {
        ol[(size_t) (cl[i] - 1) * stride + bin_of(e, nb, col[r[i] - 1])]++;
      }
    }
  }
  (void) use;
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_bin_scores, x, breaks, rows, cell, table, atoms): for each
 * rows[i], the sum over the columns l (in order) of table[b, l, cell[i]],
 * b its value's bin in column l (atom columns read as atom_value());
 * table B x d x ncell */
SEXP ffi_bin_scores(SEXP x, SEXP breaks, SEXP rows, SEXP cell, SEXP table,
                    SEXP atoms) {
  check_bins(x, breaks, rows, cell, "ffi_bin_scores");
  const atom_col **at = atom_table(atoms, Rf_ncols(x), "ffi_bin_scores");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  int nb = Rf_nrows(breaks), B = nb + 1;
  if (!Rf_isReal(table)) Rf_error("ffi_bin_scores: bad argument types");
  R_xlen_t nt = XLENGTH(table);
  if (nt % ((R_xlen_t) B * d))
    Rf_error("ffi_bin_scores: table needs B x d entries per cell");
  int nc = (int) (nt / ((R_xlen_t) B * d));
  const int *r = INTEGER_RO(rows), *cl = INTEGER_RO(cell);
  for (int i = 0; i < m; i++) {
    if (cl[i] < 1 || cl[i] > nc) Rf_error("ffi_bin_scores: cell out of range");
  }
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  double *o = REAL(out);
  const double *X = REAL_RO(x), *E = REAL_RO(breaks), *T = REAL_RO(table);
  size_t stride = (size_t) B * d;
  const int block = 256;
  int nblock = (m + block - 1) / block;
  int use = prd_threads_over((int64_t) m * d, nblock);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic)
#endif
  for (int b = 0; b < nblock; b++) {
    int i0 = b * block, i1 = i0 + block < m ? i0 + block : m;
    for (int i = i0; i < i1; i++) o[i] = 0;
    for (int l = 0; l < d; l++) {
      const double *col = X + (size_t) l * n, *e = E + (size_t) l * nb;
      const double *tl = T + (size_t) l * B;
      const atom_col *a = at[l];
      if (a) {
        for (int i = i0; i < i1; i++) {
          o[i] += tl[(size_t) (cl[i] - 1) * stride +
                     bin_of(e, nb, atom_value(a, col[r[i] - 1]))];
        }
      } else {
        for (int i = i0; i < i1; i++) {
          o[i] += tl[(size_t) (cl[i] - 1) * stride + bin_of(e, nb, col[r[i] - 1])];
        }
      }
    }
  }
  (void) use;
  UNPROTECT(1);
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
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
  {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    double *w = buf + (size_t) N * t;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int l = 0; l < d; l++) {
      const double *cx = X + (size_t) l * nx, *cy = Y + (size_t) l * ny;
      double *ol = o + (size_t) l * nr;
      const atom_col *a = at[l];
      for (int i = 0; i < mx; i++) w[i] = read_value(a, cx[ix[i] - 1]);
      for (int i = 0; i < my; i++) w[mx + i] = read_value(a, cy[iy[i] - 1]);
      qsort(w, (size_t) N, sizeof(double), cmp_double);
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

/* .Call(ffi_bin_cells, x, breaks, rows, atoms): the positions in a B x d table
 * (B = nrow(breaks) + 1) of the bins of the values of x's rows `rows`
 * (1-based; column l against column l of breaks): an m x d integer
 * matrix, bin b of column l at b + B (l - 1), 1-based, b = 1 + the number
 * of edges at or below the value (as findInterval() + 1; atom columns
 * read as atom_value(), as ffi_bin_counts; R/family-smooth.R,
 * smooth_cells()). */
SEXP ffi_bin_cells(SEXP x, SEXP breaks, SEXP rows, SEXP atoms) {
  int n = Rf_nrows(x), d = Rf_ncols(x), nb = Rf_nrows(breaks);
  int m = Rf_length(rows), B = nb + 1;
  if (Rf_ncols(breaks) != d) Rf_error("ffi_bin_cells: breaks of another width");
  const atom_col **at = atom_table(atoms, d, "ffi_bin_cells");
  const int *r = INTEGER_RO(rows);
  for (int i = 0; i < m; i++) {
    if (r[i] < 1 || r[i] > n) Rf_error("ffi_bin_cells: row out of range");
  }
  const double *X = REAL_RO(x), *E = REAL_RO(breaks);
  SEXP out = PROTECT(Rf_allocMatrix(INTSXP, m, d));
  int *o = INTEGER(out);
  for (int l = 0; l < d; l++) {
    const double *e = E + (size_t) l * nb, *xl = X + (size_t) l * n;
    int *ol = o + (size_t) l * m;
    int base = 1 + B * l;
    const atom_col *a = at[l];
    for (int i = 0; i < m; i++) {
      double v = xl[r[i] - 1];
      ol[i] = base + bin_of(e, nb, a ? atom_value(a, v) : v);
    }
  }
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_cell_sums, cells, table): each row's sum over the columns of
 * table[cells[i, l]] (1-based positions from ffi_bin_cells), accumulated
 * in long double over the columns in order, as rowSums(). */
SEXP ffi_cell_sums(SEXP cells, SEXP table) {
  int n = Rf_nrows(cells), d = Rf_ncols(cells);
  const int *c = INTEGER(cells);
  const double *t = REAL(table);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  long double *acc = (long double *) R_alloc((size_t) n, sizeof(long double));
  for (int i = 0; i < n; i++) acc[i] = 0.0L;
  for (int l = 0; l < d; l++) {
    const int *cl = c + (size_t) l * n;
    for (int i = 0; i < n; i++) acc[i] += t[cl[i] - 1];
  }
  double *o = REAL(out);
  for (int i = 0; i < n; i++) o[i] = (double) acc[i];
  UNPROTECT(1);
  return out;
}
