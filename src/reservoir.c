/* The reservoir handler: k-NN radii from candidate buffers, fed by the
 * tile loop (prd_sweep()): own radii (symmetric tiles, each pair once,
 * prd_own_radii()) and the radii of two sets in each other (X x Y once,
 * prd_cross_radii()). */
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
 * window prd_window()). A full buffer is compacted: T by quickselect, and
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
  return prd_window(t, prd_window0(b->tol_rel, b->nrm[i], b->nmax,
                                   b->tol_abs));
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
                         int idx0, double *buf, int *pos) {
  tile_row(t, nb, i, 0, n, qn, cn, buf);
  double bd = b->bound[r];
  /* the values under the bound as it is (a compaction), then each pushed
   * in order while under the bound as it becomes (a full buffer's
   * compaction lowers it): the pushes of a pass value by value */
  int np = prd_compact_le(buf, 0, n, bd, pos);
  for (int p = 0; p < np; p++) {
    int j = pos[p];
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
  int pos[FEED_COLS];
  int nj = c1 - c0;
  for (int u = 0; u < nj; u++) bd[u] = b->bound[row0 + c0 + u];
  for (int i = 0; i < mm; i++) {
    tile_row(t, nb, i, c0, nj, qn[i], cn + c0, v);
    /* the columns whose value is under their bound (kept: not both
     * above -Inf and above bd, i.e. v <= bd), as in own_feed_row() */
    int np = prd_compact_reach(v, nj, R_NegInf, bd, pos);
    for (int p = 0; p < np; p++) {
      int u = pos[p];
      if (v[u] <= bd[u]) {
        int r = row0 + c0 + u;
        own_push(b, r, v[u], idx0 + i);
        bd[u] = b->bound[r];
      }
    }
  }
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
  double *cv = heap + kmax, *r = cv + b->cap, T = R_NaN;
  if (b->seed) {
    if (n < kmax) return -1.0;
    memcpy(cv, v, (size_t) n * sizeof(double));
    T = qselect(cv, n, kmax - 1);
    if (T + own_tol(b, i, T) > b->seed[i]) return -1.0;
  }
  memset(ex, 0, (size_t) n);
  for (int pass = 0; pass < 5; pass++) {
    if (pass == 0 && !ISNAN(T)) {
      /* the kmax-th of these values is T, just selected */
      if (nk > 1) {
        memcpy(cv, v, (size_t) n * sizeof(double));
        select_ks(cv, n, ks, nk - 1, r);
      }
      r[nk - 1] = T;
    } else {
      memcpy(cv, v, (size_t) n * sizeof(double));
      select_ks(cv, n, ks, nk, r);
    }
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
  prd_ref_init(&sref, &sub, d, 0, centre, prec, -1);
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



/* ---- the reservoir handler ------------------------------------------- *
 *
 * A side per set whose radii are wanted: side 0 the sweep's rows, each
 * pushing its segment of the tile into its buffer (the `rows` hook, one
 * thread per row), side 1 the columns, each pushing its column of the
 * tile (the `columns` hook, FEED_COLS columns per thread): every row's
 * buffer is owned by one thread at a time. In the symmetric sweep both
 * are the one set's buffer (the tile's rows their segments, the later
 * rows their columns). begin(): the buffers and their seeds; end(): the
 * exact radii from the candidates, rows with too many near-ties (or a
 * seed too low) by the full-row engine. */
typedef struct {
  int on;
  const prd_rows *rows, *ot_rows; /* the side's rows and the others, as
                                     given to the sweep */
  const prd_ref *me, *ot;         /* the same, gathered */
  int n_vals, slot;               /* values per row; scratch slot */
  double *out;                    /* radii, n x nk */
  own_buf b;
} res_side;

typedef struct {
  res_side side[2];
  int self;                       /* symmetric: one set, self excluded */
  int d, nk, cap_min, nt;
  const int *ks;
  const double *centre;
  const prd_prec *prec;
  prd_progress *prog;
  double *rowbuf;                 /* threads x nb */
  int *posbuf;                    /* threads x nb: positions */
} res_handler;

static void res_begin(void *h, int m, int nb, int nt) {
  res_handler *r = (res_handler *) h;
  (void) m;
  int kmax = r->ks[r->nk - 1];
  r->nt = nt;
  for (int p = 0; p < 2; p++) {
    res_side *sd = &r->side[p];
    if (!sd->on) continue;
    own_buf_init(&sd->b, sd->me, sd->ot, sd->n_vals, kmax, r->cap_min,
                 sd->slot);
    own_seed(&sd->b, sd->rows, sd->ot_rows, r->self, r->d, r->centre,
             r->prec, kmax, r->cap_min, nt, r->prog);
  }
  r->rowbuf = (double *) R_alloc((size_t) nt * nb, sizeof(double));
  r->posbuf = (int *) R_alloc((size_t) nt * nb, sizeof(int));
}

static double res_rows(void *h, const prd_span *s, int i, int tid) {
  res_handler *r = (res_handler *) h;
  own_feed_row(&r->side[0].b, s->t, s->nb, i, s->nb, s->qn[i], s->cn,
               s->i0 + i, r->self ? i : -1, s->col0,
               r->rowbuf + (size_t) tid * s->nb,
               r->posbuf + (size_t) tid * s->nb);
  return 0.0;
}

static double res_columns(void *h, const prd_span *s, int c0, int c1,
                          int tid) {
  res_handler *r = (res_handler *) h;
  (void) tid;
  own_feed_cols(&r->side[r->self ? 0 : 1].b, s->t, s->nb, s->mm, s->qn,
                s->cn, c0, c1, s->col0, s->i0);
  return 0.0;
}

static void res_end(void *h) {
  res_handler *r = (res_handler *) h;
  for (int p = 0; p < 2; p++) {
    res_side *sd = &r->side[p];
    if (!sd->on) continue;
    own_finish(&sd->me->orig, &sd->ot->orig, r->d, &sd->b, r->ks, r->nk,
               r->nt, r->prog, sd->out);
    own_overflow(sd->ot, sd->rows, r->centre, &sd->b, r->self, r->ks, r->nk,
                 r->nt, r->prog, sd->out);
  }
}

static void res_init(res_handler *r, int self, int d, const double *centre,
                     const prd_prec *prec, const int *ks, int nk,
                     int cap_min, prd_progress *prog) {
  memset(r, 0, sizeof(*r));
  r->self = self;
  r->d = d;
  r->centre = centre;
  r->prec = prec;
  r->ks = ks;
  r->nk = nk;
  r->cap_min = cap_min;
  r->prog = prog;
}

static void res_side_set(res_side *sd, const prd_rows *rows,
                         const prd_rows *ot_rows, const prd_ref *me,
                         const prd_ref *ot, int n_vals, int slot,
                         double *out) {
  sd->on = 1;
  sd->rows = rows;
  sd->ot_rows = ot_rows;
  sd->me = me;
  sd->ot = ot;
  sd->n_vals = n_vals;
  sd->slot = slot;
  sd->out = out;
}

void prd_own_radii(const prd_rows *rows, int d, const double *centre,
                   const prd_prec *prec, const int *ks, int nk, int threads,
                   int cap_min, prd_progress *prog, double *out) {
  int n = rows->n;
  if (n <= 0) return;
  prd_ref ref;
  prd_ref_init(&ref, rows, d, 0, centre, prec, PRD_SCR_REF_A);
  res_handler r;
  res_init(&r, 1, d, centre, prec, ks, nk, cap_min, prog);
  res_side_set(&r.side[0], rows, rows, &ref, &ref, n - 1, PRD_SCR_OWN, out);
  prd_handler h = {res_begin, res_rows, res_columns, res_end, FEED_COLS};
  prd_sweep_spec sw = {&ref, NULL, NULL, 1, 1.0, 1.0};
  prd_sweep(&sw, &h, &r, threads, prog);
}


/* ---- cross-set radii: X_f x Y_f once, both sides' radii -------------- *
 *
 * Without a split, the entropies need of the pairs (x, y) the k-NN radii
 * r_k(x; B) of A's rows and r_k(y; A) of B's rows: selections, which need
 * a row's k smallest values only, not its whole row at once. So each
 * cross pair is computed once, as in prd_cross(): a tile of rows of A
 * against all of B (one product), A's rows pushing their segments into
 * their candidate buffers, B's rows their column of the tile (the
 * reservoir handler's two sides). The buffers, their windows (the row's
 * squared norm plus the largest of the other set's: prd_window() of
 * these pairs), the exact recomputation and the final selection are those of
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
  prd_ref_init(&ra, A, d, 0, centre, prec, PRD_SCR_REF_A);
  prd_ref_init(&rb, B, d, 0, centre, prec, PRD_SCR_REF_B);
  res_handler r;
  res_init(&r, 0, d, centre, prec, ks, nk, cap_min, prog);
  if (do_a)
    res_side_set(&r.side[0], A, B, &ra, &rb, nB, PRD_SCR_OWN, out_a);
  if (do_b)
    res_side_set(&r.side[1], B, A, &rb, &ra, nA, PRD_SCR_OWN_B, out_b);
  prd_handler h = {res_begin, do_a ? res_rows : NULL,
                   do_b ? res_columns : NULL, res_end, FEED_COLS};
  prd_sweep_spec sw = {&rb, &ra, NULL, 0, (double) (nA + nB), (double) nA};
  prd_sweep(&sw, &h, &r, threads, prog);
}
