/* Row operations on one distance row: exact comparisons, the selection
 * of the k-th smallest values, the counting passes. */
#include "engine.h"

/* ---- exact comparisons --------------------------------------------- */

static inline double prd_tol(const prd_ref *ref, const prd_row *row,
                             double t) {
  return prd_window(t, prd_window0(ref->tol_rel, row->q_norm2,
                                   ref->norm2_max, ref->tol_abs));
}

/* Exact squared distance between the query and reference row j, from the
 * rows as given; stored in d2[j] and flagged. */
static double prd_exact(const prd_ref *ref, prd_row *row, int j) {
  size_t rs;
  const double *r = rows_at(&ref->orig, j, &rs);
  const double *q = row->q0;
  size_t qs = row->q0_stride;
  double s = 0.0;
  for (int l = 0; l < ref->d; l++) {
    double u = q[(size_t) l * qs] - r[(size_t) l * rs];
    s += u * u;
  }
  if (!row->exact[j]) {
    row->approx[j] = row->d2[j];
    row->exact[j] = 1;
    row->touched[row->n_touched++] = j;
  }
  row->d2[j] = s;
  row->n_exact += 1.0;
  return s;
}

static inline int within(const prd_ref *ref, prd_row *row, int j, double t,
                         double tol, int closed) {
  double v = row->d2[j];
  if (v < t - tol) return 1;
  if (v > t + tol) return 0;
  if (!row->exact[j]) v = prd_exact(ref, row, j);
  return closed ? (v <= t) : (v < t);
}

void prd_row_self(prd_row *row, int skip) {
  row->d2[skip] = 0.0;
  row->approx[skip] = 0.0;
  if (!row->exact[skip]) {
    row->exact[skip] = 1;
    row->touched[row->n_touched++] = skip;
  }
}

/* ---- bounded max-heap selection of the k smallest values ------------- */

static inline void sift_down(double *h, int n, int i) {
  double v = h[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1] > h[c]) c++;
    if (h[c] <= v) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
}

/* The kmax smallest values of v[lo..hi) but `skip`, as a max-heap in h
 * (h[0] the largest of them); returns how many (< kmax if the range is
 * short). */
static int select_heap(const double *v, int lo, int hi, int skip, int kmax,
                       double *h) {
  int n = 0, j = lo;
  for (; j < hi && n < kmax; j++) {
    if (j == skip) continue;
    h[n++] = v[j];
  }
  for (int i = n / 2 - 1; i >= 0; i--) sift_down(h, n, i);
  /* blocks of 8 values are first tested together (vectorisable): most
   * blocks hold nothing below the heap's top */
  double top = n > 0 ? h[0] : R_NegInf;
  for (; j + 8 <= hi; j += 8) {
    double any = 0.0; /* a double sum: vectorises (see prd_count()) */
    for (int u = 0; u < 8; u++) any += v[j + u] < top ? 1.0 : 0.0;
    if (any == 0.0) continue;
    for (int u = 0; u < 8; u++) {
      if (v[j + u] < h[0] && j + u != skip) {
        h[0] = v[j + u];
        sift_down(h, n, 0);
      }
    }
    top = h[0];
  }
  for (; j < hi; j++) {
    if (n > 0 && v[j] < h[0] && j != skip) {
      h[0] = v[j];
      sift_down(h, n, 0);
    }
  }
  return n;
}

/* Two passes over the row: the kmax smallest values (bounded heap) give
 * T, their largest; then every value within T + tol(T) is a candidate
 * (typically kmax and a few). Windows, exact recomputations and the
 * selections after them run on the candidates only: values outside lie
 * above T + tol(T), so above every radius (a recomputation moves a value
 * by less than half the window, so the radii stay at most T + tol(T) / 2)
 * and never in a selection's k smallest. The radii are those a selection
 * over the whole row would give. */

/* the k-th smallest (0-based k) of a[0..n), by quickselect (a reordered) */
double qselect(double *a, int n, int k) {
  return quickselect(a, NULL, n, k);
}

/* the ks-th smallest of a[0..n) (ks increasing, 1-based) into out */
void select_ks(double *a, int n, const int *ks, int nk, double *out) {
  for (int kk = 0; kk < nk; kk++) out[kk] = qselect(a, n, ks[kk] - 1);
}

/* The exact radii from the candidates cand[0..nc): recompute the values
 * within the window of each radius, select again, until nothing moves.
 * T: the kmax-th smallest of the candidates' values as they are (the
 * caller's selection found it, NaN: unknown), not selected again. */
static void kth_select(const prd_ref *ref, prd_row *row, const int *cand,
                       int nc, const int *ks, int nk, double T,
                       double *out) {
  double *d2 = row->d2, *cv = row->cval;
  for (int pass = 0; pass < 5; pass++) {
    if (pass == 0 && !ISNAN(T)) {
      if (nk > 1) {
        for (int c = 0; c < nc; c++) cv[c] = d2[cand[c]];
        select_ks(cv, nc, ks, nk - 1, out);
      }
      out[nk - 1] = T;
    } else {
      for (int c = 0; c < nc; c++) cv[c] = d2[cand[c]];
      select_ks(cv, nc, ks, nk, out);
    }
    if (pass == 4) break;
    int redo = 0;
    for (int kk = 0; kk < nk; kk++) {
      double t = out[kk];
      double tol = prd_tol(ref, row, t);
      for (int c = 0; c < nc; c++) {
        int j = cand[c];
        double v = d2[j];
        if (v < t - tol || v > t + tol || row->exact[j]) continue;
        prd_exact(ref, row, j);
        redo = 1;
      }
    }
    if (!redo) break;
  }
}

/* ---- compactions: the positions of the values that pass a test ------ *
 *
 * A few percent of a row's values pass the selections' thresholds, a
 * quarter of the cross sweep's pairs its bound. Branch-free one value at
 * a time (the position is written, kept when the value passes) a pass
 * takes three cycles a value, its count a chain through every store (9%
 * of a four-curve call at 20,000 x 64, 13% of the 11 metrics). With AVX2
 * four values are tested by one compare whose mask picks, from a table,
 * the positions to store: one store of four positions, the count advanced
 * by the mask's bits. Both write up to four positions past the count,
 * within the range's own places (out[0 .. hi - lo)). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(PRD_NO_CLONES) && \
    (defined(__clang__) || __GNUC__ >= 5)
#include <immintrin.h>
#define PRD_COMPACT_AVX2 1
/* for each mask of four lanes, the lanes that are set, in order */
static const int32_t compact_lanes[16][4] __attribute__((aligned(16))) = {
  {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
  {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
  {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
  {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};

/* positions j of [lo, hi) with v[j] <= t or, with ub, with !(v[j] > t
 * && v[j] > ub[j]) */
__attribute__((target("avx2")))
static int compact_avx2(const double *v, int lo, int hi, double t,
                        const double *ub, int *out) {
  int nc = 0, j = lo;
  __m256d tv = _mm256_set1_pd(t);
  for (; j + 4 <= hi; j += 4) {
    __m256d x = _mm256_loadu_pd(v + j);
    __m256d in;
    if (ub) {
      /* "not greater" is true for NaN, as !(v > t && v > ub) */
      in = _mm256_or_pd(_mm256_cmp_pd(x, tv, _CMP_NGT_UQ),
                        _mm256_cmp_pd(x, _mm256_loadu_pd(ub + j),
                                      _CMP_NGT_UQ));
    } else {
      in = _mm256_cmp_pd(x, tv, _CMP_LE_OQ);
    }
    int m = _mm256_movemask_pd(in);
    __m128i idx = _mm_add_epi32(
      _mm_set1_epi32(j),
      _mm_load_si128((const __m128i *) compact_lanes[m]));
    _mm_storeu_si128((__m128i *) (out + nc), idx);
    nc += __builtin_popcount((unsigned) m);
  }
  for (; j < hi; j++) {
    out[nc] = j;
    nc += ub ? !(v[j] > t && v[j] > ub[j]) : v[j] <= t;
  }
  return nc;
}
#endif

prd_knobs_t prd_knobs = {1, 1, 1};

int prd_compact_le(const double *v, int lo, int hi, double t, int *out) {
#ifdef PRD_COMPACT_AVX2
  if (prd_knobs.vector && __builtin_cpu_supports("avx2"))
    return compact_avx2(v, lo, hi, t, NULL, out);
#endif
  int nc = 0;
  for (int j = lo; j < hi; j++) {
    out[nc] = j;
    nc += v[j] <= t;
  }
  return nc;
}

int prd_compact_reach(const double *v, int n, double t, const double *ub,
                      int *out) {
#ifdef PRD_COMPACT_AVX2
  if (prd_knobs.vector && __builtin_cpu_supports("avx2"))
    return compact_avx2(v, 0, n, t, ub, out);
#endif
  int nc = 0;
  for (int j = 0; j < n; j++) {
    out[nc] = j;
    nc += !(v[j] > t && v[j] > ub[j]);
  }
  return nc;
}

/* The candidates of a row range whose values are at most tau, in index
 * order, `skip` left out; returns their count. */
static int kth_filter(const double *d2, int lo, int hi, int skip, double tau,
                      int *cand) {
  int nc = prd_compact_le(d2, lo, hi, tau, cand);
  if (skip >= lo && skip < hi && d2[skip] <= tau) {
    /* in index order: take skip out */
    int p = 0;
    while (p < nc && cand[p] != skip) p++;
    if (p < nc) {
      memmove(cand + p, cand + p + 1, (size_t) (nc - p - 1) * sizeof(int));
      nc--;
    }
  }
  return nc;
}

/* Sampled threshold: on long ranges (n >= 8 kmax), tau = an order
 * statistic of a strided sample of the range, chosen so that about twice
 * kmax values lie below it; one filter pass keeps the values <= tau. When
 * at least kmax are kept, their kmax-th smallest is the range's T, and
 * when T + tol(T) <= tau every value within the window is among them: the
 * same candidates, in the same order, as the heap's two passes. Otherwise
 * (a sample far off, many ties) the heap decides. On 10,000 values and
 * kmax = 100 this took the selection from a fifth of a four-curve call at
 * d = 64 to a twentieth. */
int prd_kth(const prd_ref *ref, prd_row *row, int lo, int hi, int skip,
            const int *ks, int nk, double *heap, double *out) {
  int kmax = ks[nk - 1], n = hi - lo, nc = -1;
  double *d2 = row->d2, *cv = row->cval, T = R_NaN;
  int *cand = row->cand + lo;
  if (n >= 8 * kmax && n >= 256) {
    /* about 2 sqrt(n) samples: the selections cost S + 2 kmax + 4 n / S */
    int S = (int) (2.0 * sqrt((double) n));
    if (S > 1024) S = 1024;
    int stride = n / S;
    for (int u = 0; u < S; u++) cv[u] = d2[lo + (size_t) u * stride];
    int q = (int) ceil(2.0 * kmax * S / n) + 4;
    if (q > S) q = S;
    double tau = qselect(cv, S, q - 1);
    int m = kth_filter(d2, lo, hi, skip, tau, cand);
    if (m >= kmax) {
      for (int c = 0; c < m; c++) cv[c] = d2[cand[c]];
      double t = qselect(cv, m, kmax - 1), bound = t + prd_tol(ref, row, t);
      if (bound <= tau) {
        T = t;
        nc = 0;
        for (int c = 0; c < m; c++) {
          int j = cand[c];
          cand[nc] = j;
          nc += d2[j] <= bound;
        }
      }
    }
  }
  if (nc < 0) {
    int nh = select_heap(d2, lo, hi, skip, kmax, heap);
    double t = heap[0], bound = t + prd_tol(ref, row, t);
    T = nh == kmax ? t : R_NaN;
    nc = kth_filter(d2, lo, hi, skip, bound, cand);
  }
  kth_select(ref, row, cand, nc, ks, nk, T, out);
  return nc;
}

/* The radii over [lo1, hi1) u [lo2, hi2) (adjacent or not) from the
 * candidates prd_kth() left for each range (nc1 at row->cand + lo1, nc2 at
 * row->cand + lo2), without a pass over the row. The kmax smallest values
 * of the union are among the kmax smallest of each range; a value left out
 * of a range's candidates lies above that range's T + tol(T), so its exact
 * value is above the range's exact kmax-th radius and never among the
 * union's kmax smallest, nor within the window of a radius the selection
 * over the whole union would compute: the radii are those of prd_kth()
 * over the union. */
int prd_kth_union(const prd_ref *ref, prd_row *row, int lo1, int nc1,
                  int lo2, int nc2, const int *ks, int nk, double *out) {
  int kmax = ks[nk - 1];
  int *c1 = row->cand + lo1, *c2 = row->cand + lo2, *cand, nc = nc1 + nc2;
  /* one list at the lower range's place (the higher range's candidates
   * move down; a range holds at least its candidates, so nothing of the
   * other list is overwritten) */
  if (lo1 <= lo2) {
    cand = c1;
    memmove(c1 + nc1, c2, (size_t) nc2 * sizeof(int));
  } else {
    cand = c2;
    memmove(c2 + nc2, c1, (size_t) nc1 * sizeof(int));
  }
  double *d2 = row->d2, *cv = row->cval;
  for (int c = 0; c < nc; c++) cv[c] = d2[cand[c]];
  double T = qselect(cv, nc, kmax - 1), bound = T + prd_tol(ref, row, T);
  int m = 0;
  for (int c = 0; c < nc; c++) {
    int j = cand[c];
    cand[m] = j;
    m += d2[j] <= bound;
  }
  kth_select(ref, row, cand, m, ks, nk, T, out);
  return m;
}

/* ---- the counting passes -------------------------------------------- *
 *
 * Each counts, over d2[0..n), the values surely below a threshold
 * (v < t - tol) and those up to the top of its window (v <= t + tol):
 * when the two agree no value is in the window and the count is final.
 * Written with GCC's vector extensions (also clang's): a compare of 4
 * doubles gives 4 lanes of -1 or 0, summed in 4 integer accumulators;
 * with AVX2 one instruction each (PRD_CLONES). A plain sum over the
 * compares vectorises the compare only: GCC keeps the order of floating
 * point sums, and an integer sum over a double compare does not vectorise
 * at all (a chain of scalar additions took 16% of a four-curve call). */

/* a fixed threshold window [below, above] */
PRD_CLONES
static void count_window(const double *d2, int n, double below, double above,
                         int64_t *in, int64_t *upto) {
  int64_t a = 0, b = 0;
  int j = 0;
#ifdef PRD_VEC
  prd_v4l va = {0, 0, 0, 0}, vb = {0, 0, 0, 0};
  prd_v4d lo = {below, below, below, below}, hi = {above, above, above, above};
  for (; j + 4 <= n; j += 4) {
    prd_v4d x;
    memcpy(&x, d2 + j, sizeof x);
    va += (x < lo);
    vb += (x <= hi);
  }
  a = -(va[0] + va[1] + va[2] + va[3]);
  b = -(vb[0] + vb[1] + vb[2] + vb[3]);
#endif
  for (; j < n; j++) {
    a += d2[j] < below;
    b += d2[j] <= above;
  }
  *in = a;
  *upto = b;
}

/* a threshold per value: t[j] with the window prd_window(t[j], tol0)
 * (the vector lanes spell it out) */
PRD_CLONES
static void count_window_each(const double *d2, const double *t, int n,
                              double tol0, int64_t *in, int64_t *upto) {
  int64_t a = 0, b = 0;
  int j = 0;
#ifdef PRD_VEC
  prd_v4l va = {0, 0, 0, 0}, vb = {0, 0, 0, 0};
  prd_v4d rel = {PRD_WINDOW_REL, PRD_WINDOW_REL, PRD_WINDOW_REL,
                 PRD_WINDOW_REL}, t0 = {tol0, tol0, tol0, tol0};
  for (; j + 4 <= n; j += 4) {
    prd_v4d x, tj;
    memcpy(&x, d2 + j, sizeof x);
    memcpy(&tj, t + j, sizeof tj);
    prd_v4d tol = rel * tj + t0;
    va += (x < tj - tol);
    vb += (x <= tj + tol);
  }
  a = -(va[0] + va[1] + va[2] + va[3]);
  b = -(vb[0] + vb[1] + vb[2] + vb[3]);
#endif
  for (; j < n; j++) {
    double tol = prd_window(t[j], tol0);
    a += d2[j] < t[j] - tol;
    b += d2[j] <= t[j] + tol;
  }
  *in = a;
  *upto = b;
}

/* The positions j in [lo, hi) of the values in the window [t_j - tol_j,
 * t_j + tol_j] (t_j = t[j - lo], tol_j = prd_window(t_j, tol0); with t
 * NULL the fixed window [below, above]) into hits, at most cap of them
 * (-1: more). Called when the counting pass found some: a window holds
 * one or a few values of a row (a threshold that is one of the row's own
 * distances, as a k-th radius, lies in its own window), so sixteen values
 * are tested by four vector compares and one branch, taken only near
 * them (the scalar scan of the whole row it replaces took 6% of a
 * four-curve call at 20,000 x 64). */
#ifdef PRD_VEC
/* whether any of the sixteen values p[0..16) lies in [lo, hi] (the lanes
 * of lo and hi equal): four loads and compares, one branch for the
 * caller */
static inline __attribute__((always_inline)) int any16_in(
    const double *p, prd_v4d lo, prd_v4d hi) {
  prd_v4d x0, x1, x2, x3;
  memcpy(&x0, p, sizeof x0);
  memcpy(&x1, p + 4, sizeof x1);
  memcpy(&x2, p + 8, sizeof x2);
  memcpy(&x3, p + 12, sizeof x3);
  prd_v4l m = ((x0 >= lo) & (x0 <= hi)) | ((x1 >= lo) & (x1 <= hi)) |
              ((x2 >= lo) & (x2 <= hi)) | ((x3 >= lo) & (x3 <= hi));
  return (m[0] | m[1] | m[2] | m[3]) != 0;
}
#endif

#define WINDOW_CAP 64
PRD_CLONES
static int window_hits(const double *d2, int lo, int hi, double below,
                       double above, const double *t, double tol0,
                       int *hits, int cap) {
  int n = 0, j = lo;
#ifdef PRD_VEC
  if (!t) {
    prd_v4d vb = {below, below, below, below},
            va = {above, above, above, above};
    for (; j + 16 <= hi; j += 16) {
      if (!any16_in(d2 + j, vb, va)) continue;
      for (int u = j; u < j + 16; u++) {
        if (d2[u] < below || d2[u] > above) continue;
        if (n == cap) return -1;
        hits[n++] = u;
      }
    }
  } else {
    prd_v4d rel = {PRD_WINDOW_REL, PRD_WINDOW_REL, PRD_WINDOW_REL,
                   PRD_WINDOW_REL}, t0 = {tol0, tol0, tol0, tol0};
    for (; j + 4 <= hi; j += 4) {
      prd_v4d x, tj;
      memcpy(&x, d2 + j, sizeof x);
      memcpy(&tj, t + (j - lo), sizeof tj);
      prd_v4d tol = rel * tj + t0;
      prd_v4l m = (x >= tj - tol) & (x <= tj + tol);
      if (!(m[0] | m[1] | m[2] | m[3])) continue;
      for (int u = 0; u < 4; u++) {
        if (!m[u]) continue;
        if (n == cap) return -1;
        hits[n++] = j + u;
      }
    }
  }
#endif
  for (; j < hi; j++) {
    double b = below, a = above;
    if (t) {
      double tol = prd_window(t[j - lo], tol0);
      b = t[j - lo] - tol;
      a = t[j - lo] + tol;
    }
    if (d2[j] < b || d2[j] > a) continue;
    if (n == cap) return -1;
    hits[n++] = j;
  }
  return n;
}

int prd_count(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
              int closed) {
  double tol = prd_tol(ref, row, t), below = t - tol, above = t + tol;
  const double *d2 = row->d2;
  int64_t in, upto;
  count_window(d2 + lo, hi - lo, below, above, &in, &upto);
  int c = (int) in;
  if (upto == in) return c;
  /* the values in the window, decided exactly (those below it are in
   * `in`) */
  int hits[WINDOW_CAP];
  int nh = window_hits(d2, lo, hi, below, above, NULL, 0.0, hits,
                       WINDOW_CAP);
  if (nh >= 0) {
    for (int h = 0; h < nh; h++)
      c += within(ref, row, hits[h], t, tol, closed);
    return c;
  }
  for (int j = lo; j < hi; j++) {
    double v = d2[j];
    if (v >= below && v <= above) c += within(ref, row, j, t, tol, closed);
  }
  return c;
}

int prd_count_each(const prd_ref *ref, prd_row *row, int lo, int hi,
                   const double *t, int closed) {
  const double *d2 = row->d2;
  int64_t in, upto;
  double tol0 = prd_window0(ref->tol_rel, row->q_norm2, ref->norm2_max,
                            ref->tol_abs);
  count_window_each(d2 + lo, t, hi - lo, tol0, &in, &upto);
  if (upto == in) return (int) in;
  int hits[WINDOW_CAP];
  int nh = window_hits(d2, lo, hi, 0.0, 0.0, t, tol0, hits, WINDOW_CAP);
  if (nh >= 0) {
    int c = (int) in;
    for (int h = 0; h < nh; h++) {
      double tj = t[hits[h] - lo];
      c += within(ref, row, hits[h], tj, prd_window(tj, tol0), closed);
    }
    return c;
  }
  int c = 0;
  for (int j = lo; j < hi; j++) {
    double tj = t[j - lo];
    c += within(ref, row, j, tj, prd_tol(ref, row, tj), closed);
  }
  return c;
}

PRD_CLONES
void prd_scatter(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
                 int closed, int *acc) {
  double tol = prd_tol(ref, row, t), above = t + tol;
  /* most values lie above the window (outside the ball): skipped sixteen
   * at a time by four vector compares, without a store */
  const double *d2 = row->d2;
  int j = lo;
#ifdef PRD_VEC
  prd_v4d ab = {above, above, above, above},
          nb = {R_NegInf, R_NegInf, R_NegInf, R_NegInf};
  for (; j + 16 <= hi; j += 16) {
    if (!any16_in(d2 + j, nb, ab)) continue;
    for (int u = j; u < j + 16; u++)
      if (d2[u] <= above) acc[u] += within(ref, row, u, t, tol, closed);
  }
#endif
  for (; j < hi; j++)
    if (d2[j] <= above) acc[j] += within(ref, row, j, t, tol, closed);
}

/* Why the candidates suffice: a value left out of them lay above T +
 * tol(T) (T the largest radius's selection threshold, prd_kth()), and a
 * recomputation moves a value by less than half a window, so its exact
 * value lies above every radius t: within() decides it 0, as the full
 * pass would (which may recompute it first: the counts are the same, the
 * recomputations fewer). On a row of 20,000 values about 2 kmax are
 * read instead (the knn counts and the hub counts: 10% of a four-curve
 * call at 20,000 x 64). */
int prd_count_cand(const prd_ref *ref, prd_row *row, int lo, int hi,
                   int skip, double t, int closed) {
  double tol = prd_tol(ref, row, t);
  const int *cand = row->acand;
  int c = 0;
  for (int k = 0; k < row->n_acand; k++) {
    int j = cand[k];
    if (j >= lo && j < hi) c += within(ref, row, j, t, tol, closed);
  }
  if (skip >= lo && skip < hi) c += within(ref, row, skip, t, tol, closed);
  return c;
}

void prd_scatter_cand(const prd_ref *ref, prd_row *row, int lo, int hi,
                      int skip, double t, int closed, int *acc) {
  double tol = prd_tol(ref, row, t);
  const int *cand = row->acand;
  for (int k = 0; k < row->n_acand; k++) {
    int j = cand[k];
    if (j >= lo && j < hi) acc[j] += within(ref, row, j, t, tol, closed);
  }
  if (skip >= lo && skip < hi) acc[skip] += within(ref, row, skip, t, tol, closed);
}

/* r = 0 is the limit r -> 0: tau = 1 at distance 0, else 0. Terms are
 * decided exactly (inside the ball or not, zero distance or not), and
 * every term's value comes from the exact distance (the pairs in a ball
 * are recomputed): so the sum does not depend on the precision of the
 * products, nor on which other quantities (radii for which k) the call
 * computes. */
double prd_log_tau_sum(const prd_ref *ref, prd_row *row, int lo, int hi,
                       double radius) {
  double r2 = radius * radius;
  double tol0 = prd_tol(ref, row, 0.0);
  if (radius == 0.0) {
    for (int j = lo; j < hi; j++) {
      double a = row->exact[j] ? row->approx[j] : row->d2[j];
      if (a > tol0) continue;
      double v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
      if (v == 0.0) return R_NegInf;
    }
    return 0.0;
  }
  double tol = prd_tol(ref, row, r2);
  prd_lprod p = {1.0, 0};
  for (int j = lo; j < hi; j++) {
    double a = row->exact[j] ? row->approx[j] : row->d2[j];
    if (a > r2 + tol) continue;
    double v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
    if (v >= r2) continue;
    lprod_mul(&p, v / r2);
  }
  return lprod_log(&p);
}


/* One Lomuto partition of v[lo..hi] (jx alongside unless NULL) around the
 * median of v[lo], v[mid], v[hi], without branches on the data: each value
 * is swapped to the boundary and the boundary moves when it is smaller.
 * Returns the pivot's final position: smaller values before it, the
 * others after. */
static int partition_lomuto(double *v, int *jx, int lo, int hi) {
  int mid = lo + (hi - lo) / 2;
  /* the median of three to hi */
  double a = v[lo], b = v[mid], c = v[hi];
  int m = (a < b) ? ((b < c) ? mid : ((a < c) ? hi : lo))
                  : ((a < c) ? lo : ((b < c) ? hi : mid));
  double t = v[m]; v[m] = v[hi]; v[hi] = t;
  if (jx) { int u = jx[m]; jx[m] = jx[hi]; jx[hi] = u; }
  double p = v[hi];
  int st = lo;
  if (jx) {
    for (int i = lo; i < hi; i++) {
      double x = v[i];
      int j = jx[i], lt = x < p;
      v[i] = v[st];
      jx[i] = jx[st];
      v[st] = x;
      jx[st] = j;
      st += lt;
    }
    int u = jx[st]; jx[st] = jx[hi]; jx[hi] = u;
  } else {
    for (int i = lo; i < hi; i++) {
      double x = v[i];
      int lt = x < p;
      v[i] = v[st];
      v[st] = x;
      st += lt;
    }
  }
  t = v[st]; v[st] = v[hi]; v[hi] = t;
  return st;
}

/* the k-th smallest of v[0..n) (0-based k), by quickselect (v reordered,
 * jx alongside unless NULL): branch-free Lomuto partitions first (the
 * data-dependent branches of the classic partition mispredict about once
 * per value: the selections took an eighth of a four-curve call at
 * 20,000 x 64), then, should they not converge (many equal values, which
 * a Lomuto partition splits badly), the classic one. The same value
 * either way: the k-th smallest. */
double quickselect(double *v, int *jx, int n, int k) {
  int lo = 0, hi = n - 1;
  for (int it = 0; lo < hi && hi - lo >= 16 && it < 48; it++) {
    int s = partition_lomuto(v, jx, lo, hi);
    if (k == s) return v[k];
    if (k < s) hi = s - 1;
    else lo = s + 1;
  }
  while (lo < hi) {
    double p = v[lo + (hi - lo) / 2];
    int a = lo, b = hi;
    while (a <= b) {
      while (v[a] < p) a++;
      while (v[b] > p) b--;
      if (a <= b) {
        double t = v[a]; v[a] = v[b]; v[b] = t;
        if (jx) { int u = jx[a]; jx[a] = jx[b]; jx[b] = u; }
        a++; b--;
      }
    }
    if (k <= b) hi = b;
    else if (k >= a) lo = a;
    else break;
  }
  return v[k];
}
