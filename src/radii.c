/* k-NN radii from candidate buffers: own radii (symmetric tiles, each
 * pair once) and the radii of two sets in each other (X x Y once). */
#include "engine.h"

/* ---- own-set radii: each unordered pair once ------------------------ *
 *
 * The k-NN radii of every row of a set in the set itself (self excluded
 * by index) need only the k smallest distances of each row, not the whole
 * row at once, so the products can be symmetric: the tile of rows
 * [i0, i0 + m) is multiplied with the rows [i0, n) only (one dgemm, the
 * upper triangle in blocks; n^2 d / 2 multiply-adds in all, not n^2 d).
 * A tile's products feed the tile's own rows (each scans its row segment,
 * one thread per row) and then the later rows (each scans its column of
 * the tile, one thread per row): every row's state is owned by one thread
 * at a time, and the result is the exact k-th distance, independent of the
 * order in which the values arrive and of the thread count.
 *
 * Per-row state: a buffer of candidates (approximate squared distance,
 * index) holding every value seen so far that is at most
 * bound = T + tol(T), T the kmax-th smallest value seen (the rounding
 * window of prd_tol()). A full buffer is compacted: T by quickselect, and
 * the values above the new bound are dropped. Values dropped, or never
 * admitted, exceed kmax smaller ones and lie above every window the
 * final selection can use (T only decreases), so the buffer finally holds
 * all the values prd_kth() would look at: the same exact recomputation
 * and selection then give the same radii. A row whose buffer is still
 * more than half full after a compaction (many near-ties) stops
 * collecting and is done again by the full-row engine, prd_tiles(). */

/* the full-row engine on some rows of a set: their k-NN radii in the
 * reference (the set itself when `self`: the row's own index skipped) */
typedef struct {
  const int *map;     /* query position -> row of the set */
  int self;
  const int *ks;
  int nk;
  double *heap;       /* threads x (kmax + nk) */
  double *out;        /* n x nk */
  int n;
} own_full_ctx;

static void own_full_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  own_full_ctx *c = (own_full_ctx *) ctx;
  int kmax = c->ks[c->nk - 1], s = c->map[row->i];
  int skip = c->self ? s : -1;
  double *heap = c->heap + (size_t) row->tid * (kmax + c->nk);
  double *rr = heap + kmax;
  if (c->self) prd_row_self(row, s);
  prd_kth(ref, row, 0, ref->n, skip, c->ks, c->nk, heap, rr);
  for (int kk = 0; kk < c->nk; kk++)
    c->out[(size_t) s + (size_t) kk * c->n] = rr[kk];
}


/* Candidate buffers of the n rows of one set, whose values are squared
 * distances to the rows of a reference set (the set itself, or the other
 * set): nrm the rows' squared norms, nmax the reference's largest, so
 * that own_tol() is prd_tol() of those pairs. */
typedef struct {
  double *v;      /* n x cap candidate values */
  int *jx;        /* n x cap candidate indices */
  int *cnt;
  double *bound;
  unsigned char *over;
  const double *nrm;
  double nmax, tol_rel, tol_abs;
  int n, cap, kmax;
  const double *seed; /* each row's first bound (own_seed()), or NULL */
} own_buf;

/* Buffers for the rows of `me` (n_vals values each, from the rows of the
 * reference `ot`), in scratch slot `slot`: cap_min candidates per row (0:
 * the default), at least kmax + 2, and at most n_vals + 1 (a buffer that
 * can hold every value is never compacted). */
static void own_buf_init(own_buf *b, const prd_ref *me, const prd_ref *ot,
                         int n_vals, int kmax, int cap_min, int slot) {
  int n = me->n;
  b->n = n;
  b->kmax = kmax;
  b->cap = cap_min > 0 ? cap_min : 4 * kmax + 256;
  if (b->cap < kmax + 2) b->cap = kmax + 2;
  if (b->cap > n_vals + 1) b->cap = n_vals + 1;
  size_t nc = (size_t) n * b->cap;
  char *p = (char *) prd_scratch(slot, nc * (sizeof(double) + sizeof(int)));
  b->v = (double *) p;
  b->jx = (int *) (p + nc * sizeof(double));
  b->cnt = (int *) R_alloc(n, sizeof(int));
  b->bound = (double *) R_alloc(n, sizeof(double));
  b->over = (unsigned char *) R_alloc(n, 1);
  b->nrm = me->norm2;
  b->nmax = ot->norm2_max;
  b->tol_rel = ot->tol_rel;
  b->tol_abs = ot->tol_abs;
  b->seed = NULL;
  for (int i = 0; i < n; i++) {
    b->cnt[i] = 0;
    b->bound[i] = R_PosInf;
    b->over[i] = 0;
  }
}

static inline double own_tol(const own_buf *b, int i, double t) {
  return 1e-9 * t + b->tol_rel * (b->nrm[i] + b->nmax) + b->tol_abs;
}

static void own_compact(own_buf *b, int i) {
  double *v = b->v + (size_t) i * b->cap;
  int *jx = b->jx + (size_t) i * b->cap, n = b->cnt[i];
  double t = quickselect(v, jx, n, b->kmax - 1);
  double bd = t + own_tol(b, i, t);
  int m = 0;
  for (int c = 0; c < n; c++) {
    if (v[c] <= bd) {
      v[m] = v[c];
      jx[m] = jx[c];
      m++;
    }
  }
  b->cnt[i] = m;
  b->bound[i] = bd;
  if (m > b->cap / 2) {
    b->over[i] = 1;
    b->bound[i] = -1.0; /* admit nothing more */
  }
}

static inline void own_push(own_buf *b, int i, double x, int j) {
  int c = b->cnt[i];
  b->v[(size_t) i * b->cap + c] = x;
  b->jx[(size_t) i * b->cap + c] = j;
  b->cnt[i] = c + 1;
  if (c + 1 == b->cap) own_compact(b, i);
}

/* Row i of a tile (squared norm qn) to buffer row r: the values of tile
 * columns [0, n) (reference rows with squared norms cn, indices idx0..),
 * column `skip` left out (-1: none), through the per-thread row buffer
 * buf. The bound stays in a register: b->bound[] of neighbouring rows is
 * written by the other threads (a shared cache line). */
static void own_feed_row(own_buf *b, const prd_tile *t, int nb, int i,
                         int n, double qn, const double *cn, int r, int skip,
                         int idx0, double *buf) {
  tile_row(t, nb, i, 0, n, qn, cn, buf);
  double bd = b->bound[r];
  for (int j = 0; j < n; j++) {
    double v = buf[j];
    if (v <= bd && j != skip) {
      own_push(b, r, v, idx0 + j);
      bd = b->bound[r];
    }
  }
}

/* Columns [c0, c1) of a tile (leading dimension nb; tile rows 0..mm-1,
 * squared norms qn) to the buffer rows row0 + c: values qn[i] + cn[c] +
 * product, index idx0 + i. Read tile row by tile row, FEED_COLS columns
 * at a time (contiguous, where a column is strided by a whole row), the
 * rows' bounds in registers: each buffer row still gets its values in the
 * order of i, and a block of columns is fed by one thread. */
#define FEED_COLS 128
static void own_feed_cols(own_buf *b, const prd_tile *t, int nb, int mm,
                          const double *qn, const double *cn, int c0, int c1,
                          int row0, int idx0) {
  double bd[FEED_COLS], v[FEED_COLS];
  int nj = c1 - c0;
  for (int u = 0; u < nj; u++) bd[u] = b->bound[row0 + c0 + u];
  for (int i = 0; i < mm; i++) {
    tile_row(t, nb, i, c0, nj, qn[i], cn + c0, v);
    for (int u = 0; u < nj; u++) {
      if (v[u] <= bd[u]) {
        int r = row0 + c0 + u;
        own_push(b, r, v[u], idx0 + i);
        bd[u] = b->bound[r];
      }
    }
  }
}

/* One tile's products (nb x mm: tile rows i0.. i0 + mm - 1 with squared
 * norms qn, columns the rows col0.. of the reference, squared norms cn)
 * to candidate buffers, in one parallel region: each tile row pushes its
 * segment into bs (NULL: none; `self`: the column of the row itself, i,
 * left out), one thread per row; then the columns [c_from, nb) push into
 * bc (NULL: none), FEED_COLS at a time, one thread per block. rowbuf:
 * threads x nb doubles. Returns the thread team that ran. */
static int feed_tile(own_buf *bs, own_buf *bc, const prd_tile *t, int nb,
                     int mm, int i0, int col0, const double *qn,
                     const double *cn, int self, int c_from, double *rowbuf,
                     int nt) {
  int team = 1;
  int use = prd_threads_for((int64_t) mm * nb, nt);
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
  {
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#pragma omp master
    team = omp_get_num_threads();
#endif
    if (bs) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int i = 0; i < mm; i++)
        own_feed_row(bs, t, nb, i, nb, qn[i], cn, i0 + i, self ? i : -1,
                     col0, rowbuf + (size_t) tid * nb);
    }
    if (bc) {
      int nblk = (nb - c_from + FEED_COLS - 1) / FEED_COLS;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
      for (int k = 0; k < nblk; k++) {
        int c0 = c_from + k * FEED_COLS;
        int c1 = nb - c0 < FEED_COLS ? nb : c0 + FEED_COLS;
        own_feed_cols(bc, t, nb, mm, qn, cn, c0, c1, col0, i0);
      }
    }
  }
  (void) use;
  return team;
}


/* prd_kth() on the candidates of row i of `me` (candidate indices are
 * rows of `ot`): recompute exactly every value within the window of a
 * radius, select again, until nothing changes. Returns the exact
 * recomputations, or -1 when a seeded bound turned out too low: it must
 * lie above the window of the row's kmax-th value, or values the
 * selection needs may never have been admitted (the row then goes to the
 * full-row engine). */
static double own_final(const prd_rows *me, const prd_rows *ot, int d,
                        own_buf *b, int i, const int *ks, int nk,
                        double *heap, unsigned char *ex, double *out) {
  double *v = b->v + (size_t) i * b->cap;
  const int *jx = b->jx + (size_t) i * b->cap;
  int n = b->cnt[i], kmax = ks[nk - 1];
  double n_exact = 0.0;
  double *cv = heap + kmax, *r = cv + b->cap;
  if (b->seed) {
    if (n < kmax) return -1.0;
    memcpy(cv, v, (size_t) n * sizeof(double));
    double T = qselect(cv, n, kmax - 1);
    if (T + own_tol(b, i, T) > b->seed[i]) return -1.0;
  }
  memset(ex, 0, (size_t) n);
  for (int pass = 0; pass < 5; pass++) {
    memcpy(cv, v, (size_t) n * sizeof(double));
    select_ks(cv, n, ks, nk, r);
    if (pass == 4) break;
    int redo = 0;
    for (int kk = 0; kk < nk; kk++) {
      double t = r[kk], tol = own_tol(b, i, t);
      for (int c = 0; c < n; c++) {
        if (ex[c] || v[c] < t - tol || v[c] > t + tol) continue;
        v[c] = pair_exact(me, i, ot, jx[c], d);
        ex[c] = 1;
        n_exact += 1.0;
        redo = 1;
      }
    }
    if (!redo) break;
  }
  for (int kk = 0; kk < nk; kk++)
    out[(size_t) i + (size_t) kk * b->n] = r[kk];
  return n_exact;
}

/* The exact radii of every row of `me` whose buffer held (out: n x nk),
 * from its candidates; exact recomputations added to prog->exact. Rows
 * whose seeded bound was too low are marked as overflowing. */
static void own_finish(const prd_rows *me, const prd_rows *ot, int d,
                       own_buf *b, const int *ks, int nk, int nt,
                       prd_progress *prog, double *out) {
  int n = b->n, kmax = ks[nk - 1];
  size_t hl = (size_t) kmax + b->cap + nk;
  double *heap = (double *) R_alloc((size_t) nt * hl, sizeof(double));
  unsigned char *ex = (unsigned char *) R_alloc((size_t) nt * b->cap, 1);
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
  int use = prd_threads_for((int64_t) n * kmax, nt);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic, 64)
#endif
  for (int i = 0; i < n; i++) {
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
    if (b->over[i]) continue;
    double e = own_final(me, ot, d, b, i, ks, nk, heap + (size_t) tid * hl,
                         ex + (size_t) tid * b->cap, out);
    if (e < 0.0) b->over[i] = 1;
    else n_exact[tid] += e;
  }
  (void) use;
  for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
}

/* Rows of `rows` whose buffer overflowed (too many near-ties) or whose
 * seed was too low: their radii in `ref` (the set itself when `self`) by
 * the full-row engine. Their progress ticks are taken back: the bar
 * counts rows once. */
static void own_overflow(const prd_ref *ref, const prd_rows *rows,
                         const double *centre, const own_buf *b, int self,
                         const int *ks, int nk, int nt, prd_progress *prog,
                         double *out) {
  int n = rows->n, n_over = 0, kmax = ks[nk - 1];
  for (int i = 0; i < n; i++) n_over += b->over[i];
  if (n_over == 0) return;
  int *map = (int *) R_alloc(n_over, sizeof(int));
  int *qidx = (int *) R_alloc(n_over, sizeof(int));
  /* query rows: the same sources, the overflowing rows' indices; a query
   * position is below n0 when its row is */
  int q0 = 0;
  for (int i = 0, c = 0; i < n; i++) {
    if (!b->over[i]) continue;
    map[c] = i;
    qidx[c] = rows->idx[i];
    if (i < rows->n0) q0++;
    c++;
  }
  prd_rows qr = {{rows->src[0], rows->src[1]}, {rows->ld[0], rows->ld[1]},
                 qidx, n_over, q0};
  prd_query q = {qr, centre};
  own_full_ctx c = {map, self, ks, nk,
                    (double *) R_alloc((size_t) nt * (kmax + nk),
                                       sizeof(double)),
                    out, n};
  prd_tiles(ref, &q, own_full_visit, &c, nt, prog);
  prog->ticks -= n_over;
}

/* First bounds of the candidate buffers. With bound +inf a row admits
 * every value until its buffer first fills (4 kmax + 256 of them, each a
 * store to a cold line: most of the symmetric sweep's time at d = 64).
 * Instead each row of `me` starts from the q-th smallest of its distances
 * to a strided sample of S = 2 sqrt(n) rows of `ot` (itself left out when
 * `self`), q chosen so that about 2 kmax + 4 n / S values lie below it;
 * the sample's products cost S / n of the sweep's. A bound too low is
 * caught in own_final() and the row goes to the full-row engine: exact
 * either way. */
typedef struct {
  int stride, S, q, self;
  double *seed;
} own_seed_ctx;

static void own_seed_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  own_seed_ctx *c = (own_seed_ctx *) ctx;
  (void) ref;
  int r = row->i, m = 0;
  double *v = row->cval;
  for (int j = 0; j < c->S; j++)
    if (!c->self || (int64_t) j * c->stride != r) v[m++] = row->d2[j];
  c->seed[r] = qselect(v, m, (c->q < m ? c->q : m) - 1);
}

/* Seeds b's rows (the rows `me`) from a sample of the rows `ot`, unless
 * the buffers' size is forced (tests) or the sets are short */
static void own_seed(own_buf *b, const prd_rows *me, const prd_rows *ot,
                     int self, int d, const double *centre,
                     const prd_prec *prec, int kmax, int cap_min, int threads,
                     prd_progress *prog) {
  int n = ot->n;
  /* above d = 512 the pushes are cheap next to the products and the
   * seed's gather of every row costs more than it saves (four curves at
   * 10,000 x 2,048: 0.1 s more per own-radius call; equal at d = 512,
   * 0.06 s less per call at 20,000 x 256) */
  if (cap_min > 0 || n < 8 * kmax || n < 256 || d > 512) return;
  int S = (int) (2.0 * sqrt((double) n));
  if (S > 1024) S = 1024;
  int stride = n / S;
  int *idx = (int *) R_alloc(S, sizeof(int));
  int n0 = 0;
  for (int j = 0; j < S; j++) {
    idx[j] = ot->idx[j * stride];
    n0 += j * stride < ot->n0;
  }
  prd_rows sub = {{ot->src[0], ot->src[1]}, {ot->ld[0], ot->ld[1]},
                  idx, S, n0};
  prd_ref sref;
  prd_ref_init(&sref, &sub, d, centre, prec, -1);
  double *seed = (double *) R_alloc(me->n, sizeof(double));
  int q = (int) ceil(2.0 * kmax * S / n) + 4;
  own_seed_ctx c = {stride, S, q, self, seed};
  prd_query qry = {*me, centre};
  double ticks = prog->ticks;
  prd_tiles(&sref, &qry, own_seed_visit, &c, threads, prog);
  prog->ticks = ticks;
  for (int i = 0; i < me->n; i++) b->bound[i] = seed[i];
  b->seed = seed;
}

void prd_own_radii(const prd_rows *rows, int d, const double *centre,
                   const prd_prec *prec, const int *ks, int nk, int threads,
                   int cap_min, prd_progress *prog, double *out) {
  int n = rows->n, kmax = ks[nk - 1];
  if (n <= 0) return;
  prd_ref ref;
  prd_ref_init(&ref, rows, d, centre, prec, PRD_SCR_REF_A);
  int nt = threads < 1 ? 1 : threads;
  own_buf b;
  own_buf_init(&b, &ref, &ref, n - 1, kmax, cap_min, PRD_SCR_OWN);
  own_seed(&b, rows, rows, 1, d, centre, prec, kmax, cap_min, nt, prog);

  int m = tile_rows(n, n, d);
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * n);
  double *rowbuf = (double *) R_alloc((size_t) nt * n, sizeof(double));
  const double *rn = ref.norm2;
  for (int i0 = 0; i0 < n; i0 += m) {
    int mm = n - i0 < m ? n - i0 : m, nc = n - i0;
    /* the tile (nc x mm) = -2 F[i0:n, ] F[i0:i0+mm, ]' : column i holds
     * row i0 + i's products with the rows i0.. n-1 */
    const void *Fi = block_at(&ref, i0);
    tile_products(prec, nc, mm, d, Fi, n, Fi, n, &tile, nt);
    /* the tile's rows: their segments; later rows: their columns */
    int team = feed_tile(&b, &b, &tile, nc, mm, i0, i0, rn + i0, rn + i0, 1,
                         mm, rowbuf, nt);
    tile_done(prog, team, mm);
  }

  /* exact radii from the candidates; rows with too many near-ties (or a
   * seed too low): the full-row engine */
  own_finish(&ref.orig, &ref.orig, d, &b, ks, nk, nt, prog, out);
  own_overflow(&ref, rows, centre, &b, 1, ks, nk, nt, prog, out);
}


/* ---- cross-set radii: X_f x Y_f once, both sides' radii -------------- *
 *
 * Without a split, the entropies need of the pairs (x, y) the k-NN radii
 * r_k(x; B) of A's rows and r_k(y; A) of B's rows: selections, which need
 * a row's k smallest values only, not its whole row at once. So each
 * cross pair is computed once, as in prd_cross(): a tile of rows of A
 * against all of B (one product), A's rows pushing their segments into
 * their candidate buffers (one thread per row), then B's rows pushing
 * their column of the tile (one thread per row): every row's buffer is
 * owned by one thread at a time. The buffers, their windows (the row's
 * squared norm plus the largest of the other set's: prd_tol() of these
 * pairs), the exact recomputation and the final selection are those of
 * prd_own_radii() without self-exclusion, so the radii are the exact k-th
 * distances, the same as the full-row engine's, whatever the thread
 * count; rows with too many near-ties go to the full-row engine against
 * the other set. */

void prd_cross_radii(const prd_rows *A, const prd_rows *B, int d,
                     const double *centre, const prd_prec *prec,
                     const int *ks, int nk, int threads, int cap_min,
                     prd_progress *prog, double *out_a, double *out_b) {
  int nA = A->n, nB = B->n, kmax = ks[nk - 1];
  int do_a = out_a != NULL && nA > 0, do_b = out_b != NULL && nB > 0;
  if ((do_a && nB < kmax) || (do_b && nA < kmax))
    Rf_error("k = %d is too large for the set sizes", kmax);
  if (!do_a && !do_b) return;
  prd_ref ra, rb;
  prd_ref_init(&ra, A, d, centre, prec, PRD_SCR_REF_A);
  prd_ref_init(&rb, B, d, centre, prec, PRD_SCR_REF_B);
  int nt = threads < 1 ? 1 : threads;
  own_buf ba, bb;
  if (do_a) {
    own_buf_init(&ba, &ra, &rb, nB, kmax, cap_min, PRD_SCR_OWN);
    own_seed(&ba, A, B, 0, d, centre, prec, kmax, cap_min, nt, prog);
  }
  if (do_b) {
    own_buf_init(&bb, &rb, &ra, nA, kmax, cap_min, PRD_SCR_OWN_B);
    own_seed(&bb, B, A, 0, d, centre, prec, kmax, cap_min, nt, prog);
  }

  int m = tile_rows(nB, nA, d);
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * nB);
  double *rowbuf = (double *) R_alloc((size_t) nt * nB, sizeof(double));
  for (int i0 = 0; i0 < nA; i0 += m) {
    int mm = nA - i0 < m ? nA - i0 : m;
    /* the tile (nB x mm) = -2 B A[i0:i0+mm, ]' : column i holds row i0 + i
     * of A's products with every row of B */
    tile_products(prec, nB, mm, d, block_at(&rb, 0), nB, block_at(&ra, i0),
                  nA, &tile, nt);
    /* A's rows: their segments; B's rows: their columns of the tile */
    int team = feed_tile(do_a ? &ba : NULL, do_b ? &bb : NULL, &tile, nB, mm,
                         i0, 0, ra.norm2 + i0, rb.norm2, 0, 0, rowbuf, nt);
    tile_done(prog, team, (double) mm * (nA + nB) / nA);
  }

  /* exact radii from the candidates; rows with too many near-ties: the
   * full-row engine against the other set */
  if (do_a) {
    own_finish(&ra.orig, &rb.orig, d, &ba, ks, nk, nt, prog, out_a);
    own_overflow(&rb, A, centre, &ba, 0, ks, nk, nt, prog, out_a);
  }
  if (do_b) {
    own_finish(&rb.orig, &ra.orig, d, &bb, ks, nk, nt, prog, out_b);
    own_overflow(&ra, B, centre, &bb, 0, ks, nk, nt, prog, out_b);
  }
}

