/* The decide handler: X_f x Y_f once through the tile loop
 * (prd_sweep()), both sides' ball counts and ppr sums decided against
 * known radii (manifold metrics without a split, prd_cross()). */
#include "engine.h"

/* ---- cross-set sweep: X_f x Y_f once, both sides fed ---------------- *
 *
 * Without a split, the scalar metrics need of the pairs (x, y) only
 * decisions against radii already known (own radii, fixed radii): no
 * selection in the other set. So each cross pair is computed once: a tile
 * of rows of A against all of B (one product), then each block of
 * CROSS_BLOCK columns (B's rows) is visited by one thread, the tile's
 * rows in order, both sides of each pair at once: B's rows own their
 * outputs, A's rows write theirs into the block's partials, which are
 * then added (counts) or multiplied (ppr) in block order. Every output is
 * formed in a fixed order, so results do not depend on the thread count.
 * Decisions are exact as in prd_count(): a pair within the rounding
 * window of a threshold is recomputed from the rows as given. */

/* One pair seen from one side: `me` has the outputs (counts in_ot for
 * "me in the other's ball", ot_in for "the other in my ball", the product
 * over the other's balls of radius R), at index mo. Returns exact
 * recomputations. */
typedef struct {
  const double *r_me, *r_ot;  /* own radii (squared), column kk at kk * ld */
  size_t ld_me, ld_ot;
  int *in_ot, *ot_in;         /* counts, column kk at kk * ld_out */
  size_t ld_out;
  prd_lprod *pp;              /* ppr products (engine.h) */
  double R, R2;               /* ppr radius of the other set's balls */
  double tol_rel, tol_abs, nmax_ot;
  const double *nrm_me;
} cross_side;

/* pair_exact() of row a of A with the rows b[0..3] of B, the four sums
 * interleaved (independent chains), each in the order of pair_exact():
 * out[j] = the exact squared distance of row b[j] */
static void pair_exact4(const prd_rows *A, int a, const prd_rows *B,
                        const int *b, int d, double *out) {
  size_t qs, s0, s1, s2, s3;
  const double *q = rows_at(A, a, &qs);
  const double *r0 = rows_at(B, b[0], &s0), *r1 = rows_at(B, b[1], &s1),
               *r2 = rows_at(B, b[2], &s2), *r3 = rows_at(B, b[3], &s3);
  double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
  for (int l = 0; l < d; l++) {
    double x = q[(size_t) l * qs];
    double u0 = x - r0[(size_t) l * s0], u1 = x - r1[(size_t) l * s1],
           u2 = x - r2[(size_t) l * s2], u3 = x - r3[(size_t) l * s3];
    t0 += u0 * u0;
    t1 += u1 * u1;
    t2 += u2 * u2;
    t3 += u3 * u3;
  }
  out[0] = t0;
  out[1] = t1;
  out[2] = t2;
  out[3] = t3;
}

/* The exact squared distances of row q with eight rows r[j] (row-major),
 * out[j]: each pair in a lane of a vector, its sum in the order of
 * pair_exact() (the same values) */
static inline __attribute__((always_inline)) void exact8_rm(const double *q, const double *const *r, int d,
                             double *out) {
#ifdef PRD_VEC
  /* two groups of four lanes: two independent chains of additions */
  prd_v4d t0 = {0.0, 0.0, 0.0, 0.0}, t1 = t0;
  int l = 0;
#if defined(__GNUC__) && !defined(__clang__)
  /* four coordinates of each row in one load, transposed in registers */
  const prd_v4l lo = {0, 4, 2, 6}, hi = {1, 5, 3, 7}, h0 = {0, 1, 4, 5},
                h1 = {2, 3, 6, 7};
  for (; l + 4 <= d; l += 4) {
    prd_v4d xq;
    memcpy(&xq, q + l, sizeof xq);
    for (int g = 0; g < 2; g++) {
      prd_v4d a, b, c, e;
      memcpy(&a, r[4 * g] + l, sizeof a);
      memcpy(&b, r[4 * g + 1] + l, sizeof b);
      memcpy(&c, r[4 * g + 2] + l, sizeof c);
      memcpy(&e, r[4 * g + 3] + l, sizeof e);
      prd_v4d ab0 = __builtin_shuffle(a, b, lo),
              ab1 = __builtin_shuffle(a, b, hi),
              ce0 = __builtin_shuffle(c, e, lo),
              ce1 = __builtin_shuffle(c, e, hi);
      /* y_j: coordinate l + j of the four rows */
      prd_v4d y0 = __builtin_shuffle(ab0, ce0, h0),
              y1 = __builtin_shuffle(ab1, ce1, h0),
              y2 = __builtin_shuffle(ab0, ce0, h1),
              y3 = __builtin_shuffle(ab1, ce1, h1);
      prd_v4d t = g ? t1 : t0;
      prd_v4d u0 = (prd_v4d) {xq[0], xq[0], xq[0], xq[0]} - y0;
      t += u0 * u0;
      prd_v4d u1 = (prd_v4d) {xq[1], xq[1], xq[1], xq[1]} - y1;
      t += u1 * u1;
      prd_v4d u2 = (prd_v4d) {xq[2], xq[2], xq[2], xq[2]} - y2;
      t += u2 * u2;
      prd_v4d u3 = (prd_v4d) {xq[3], xq[3], xq[3], xq[3]} - y3;
      t += u3 * u3;
      if (g) t1 = t; else t0 = t;
    }
  }
#endif
  for (; l < d; l++) {
    double x = q[l];
    prd_v4d xv = {x, x, x, x};
    prd_v4d y0 = {r[0][l], r[1][l], r[2][l], r[3][l]};
    prd_v4d y1 = {r[4][l], r[5][l], r[6][l], r[7][l]};
    prd_v4d u0 = xv - y0, u1 = xv - y1;
    t0 += u0 * u0;
    t1 += u1 * u1;
  }
  for (int j = 0; j < 4; j++) {
    out[j] = t0[j];
    out[j + 4] = t1[j];
  }
#else
  double t[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int l = 0; l < d; l++) {
    double x = q[l];
    for (int j = 0; j < 8; j++) {
      double u = x - r[j][l];
      t[j] += u * u;
    }
  }
  for (int j = 0; j < 8; j++) out[j] = t[j];
#endif
}

/* The exact squared distances of row q with the rows of B at those of
 * the candidates cand[0..nc) within reach (vb[b] <= preach) into ec[b],
 * -1 for the others; q and B row-major (B's row b at rm + b d), eight
 * pairs at a time (exact8_rm()). The rows of B lie anywhere in a set
 * larger than the L2 cache: each is prefetched when it is chosen, eight
 * pairs before its distance is computed. Returns the pairs computed. */
PRD_CLONES
static int exact_reach_rm(const double *q, const double *rm, int d,
                          const int *cand, int nc, const double *vb,
                          double preach, double *ec) {
  int sel[16], ns = 0, n = 0;
  const double *r[8];
  double out[8];
  for (int k = 0; k < nc; k++) {
    int b = cand[k];
    if (vb[b] > preach) {
      ec[b] = -1.0;
      continue;
    }
    const double *row = rm + (size_t) b * d;
    for (int l = 0; l < d; l += 8) __builtin_prefetch(row + l);
    sel[ns++] = b;
    if (ns < 16) continue;
    for (int j = 0; j < 8; j++) r[j] = rm + (size_t) sel[j] * d;
    exact8_rm(q, r, d, out);
    for (int j = 0; j < 8; j++) {
      ec[sel[j]] = out[j];
      sel[j] = sel[j + 8];
    }
    n += 8;
    ns = 8;
  }
  int j0 = 0;
  if (ns >= 8) {
    for (int j = 0; j < 8; j++) r[j] = rm + (size_t) sel[j] * d;
    exact8_rm(q, r, d, out);
    for (int j = 0; j < 8; j++) ec[sel[j]] = out[j];
    j0 = 8;
  }
  for (int k = j0; k < ns; k++) {
    const double *row = rm + (size_t) sel[k] * d;
    double t = 0.0;
    for (int l = 0; l < d; l++) {
      double u = q[l] - row[l];
      t += u * u;
    }
    ec[sel[k]] = t;
  }
  return n + ns;
}

/* v, the approximate squared distance of the pair (me, ot), against the
 * threshold t with the window tol: 1 inside. Within the window the exact
 * distance decides (*ex: computed once per pair, -1 until then). */
static inline int cross_decide(double v, double t, double tol, int closed,
                               double *ex, double *n_ex, const prd_rows *M,
                               int me, const prd_rows *O, int ot, int d) {
  /* one rarely taken branch: outside the window the answer is a flag
   * (about half of the pairs that reach here are inside a ball, which a
   * branch on it would mispredict) */
  if (__builtin_expect((v >= t - tol) & (v <= t + tol), 0)) {
    if (*ex < 0.0) {
      *ex = pair_exact(M, me, O, ot, d);
      *n_ex += 1.0;
    }
    return closed ? (*ex <= t) : (*ex < t);
  }
  return v < t - tol;
}

/* (inlined: called twice for every pair under the bound, a quarter of
 * all pairs at d = 64) */
static inline __attribute__((always_inline)) double cross_visit(
    const cross_side *s, int me, int mo, int ot, double v, const prd_rows *M,
    const prd_rows *O, int d, int nk, int closed, int ipr, int cov, int ppr,
    double *exc, int load, int store) {
  /* exc: the pair's slot in the tile's cache of exact distances (-1: not
   * computed); the first side stores, the second loads */
  double ex = load ? *exc : -1.0, n_ex = 0.0;
  double w0 = prd_window0(s->tol_rel, s->nrm_me[me], s->nmax_ot, s->tol_abs);
  for (int kk = 0; kk < nk; kk++) {
    if (ipr) {
      double t = s->r_ot[(size_t) ot + (size_t) kk * s->ld_ot];
      s->in_ot[(size_t) mo + (size_t) kk * s->ld_out] += cross_decide(
        v, t, prd_window(t, w0), closed, &ex, &n_ex, M, me, O, ot, d);
    }
    if (cov) {
      double t = s->r_me[(size_t) me + (size_t) kk * s->ld_me];
      s->ot_in[(size_t) mo + (size_t) kk * s->ld_out] += cross_decide(
        v, t, prd_window(t, w0), closed, &ex, &n_ex, M, me, O, ot, d);
    }
  }
  if (ppr) {
    /* as prd_log_tau_sum(): membership decided exactly, every term's
     * value from the exact distance */
    double r2 = s->R2, tol = prd_window(r2, w0), tol0 = w0;
    if (s->R == 0.0) {
      if (v <= tol0) {
        if (ex < 0.0) { ex = pair_exact(M, me, O, ot, d); n_ex += 1.0; }
        if (ex == 0.0) s->pp[mo].m = 0.0;
      }
    } else if (v <= r2 + tol) {
      if (ex < 0.0) { ex = pair_exact(M, me, O, ot, d); n_ex += 1.0; }
      /* a factor of 1 outside the ball (exact: the product is kept) */
      lprod_mul(&s->pp[mo], ex < r2 ? ex / r2 : 1.0);
    }
  }
  if (store) *exc = ex;
  return n_ex;
}

#define CROSS_BLOCK 256
/* from this many coordinates on, the ppr pairs' exact distances come
 * from the panels (dec_panels()), which compute every pair: most
 * pairs are within reach of a ppr ball there, and the row-by-row pass
 * reads B from memory (p_precision and p_recall at 20,000 x 128: 11.0 s
 * against 17.1 s; at 20,000 x 64 the row-by-row pass is faster, 4.7 s
 * against 5.9 s) */
#define PPR_PANEL_D 128

/* ---- the decide handler ---------------------------------------------- *
 *
 * One hook, `prep`, per block of CROSS_BLOCK columns (B's rows), one
 * thread each: the tile's rows in order visit the pairs of the block
 * under the bound, both sides at once. A row of B sees A's rows in
 * increasing order, so its sums are formed in the same order whatever the
 * tiles and threads. A row of A writes its counts and its ppr product
 * into the block's partials; the `rows` hook, after every block, adds
 * the counts and multiplies the products in block order (dec_reduce()).
 * The blocks are fixed (multiples of CROSS_BLOCK of B, which is whole in
 * every call, also on futures), so the result is too. */
typedef struct {
  cross_side sa, sb;
  const prd_ref *ra, *rb;
  const double *u_a, *u_b;
  double preach;
  int d, nk, closed, ipr, cov, ppr;
  /* per thread, the exact distances of its block's pairs (m x
   * CROSS_BLOCK, row i's at i CROSS_BLOCK): those under the bound, or
   * every pair with panels; a pair's exact distance is the same from
   * either side: sum((x - y)^2) = sum((y - x)^2) */
  double *exc;
  /* B's ppr products over the current block of A's rows (sb.pp points
   * here): their sums of log(1 - tau), the block's partial sums, are
   * added onto psum_b (and stored in parts) at the end of each block */
  prd_lprod *part;
  double *psum_b, *parts;
  /* A's rows' outputs (ld_a) and the blocks' partials of the tile's rows:
   * block k's counts at k * m * nk (column kk at kk * m), products at k *
   * m */
  int *ipr_a, *cov_a;
  size_t ld_a;
  double *psum_a;
  int m, nblk;
  int *pa_ipr, *pa_cov;
  prd_lprod *pa_pp;
  /* with ppr in high dimension: B's rows in panels of four (panel P holds
   * rows 4P..4P+3, coordinate l of row 4P + j at P * 4d + 4l + j), and
   * the rows of B per sub-block of the panels' exact distances */
  const double *panel;
  int bsub;
  int *cbuf;    /* threads x CROSS_BLOCK: candidates */
  double *vbuf; /* threads x CROSS_BLOCK: distances */
} dec_handler;

/* The exact squared distances of four rows of A (q[u], stride qs[u])
 * with the eight rows of B of two consecutive panels (p, p + 4d), out[8u
 * + v]: each pair's sum in the lanes of a vector, in the order of
 * pair_exact() (the same values) */
PRD_CLONES
static void exact_4x8(const double *const *q, const size_t *qs,
                      const double *p, int d, double *out) {
  const double *p1 = p + (size_t) 4 * d;
#ifdef PRD_VEC
  /* eight accumulators in registers (an array of them stays in memory) */
  const double *q0 = q[0], *q1 = q[1], *q2 = q[2], *q3 = q[3];
  size_t s0 = qs[0], s1 = qs[1], s2 = qs[2], s3 = qs[3];
  prd_v4d t00 = {0.0, 0.0, 0.0, 0.0}, t01 = t00, t10 = t00, t11 = t00,
          t20 = t00, t21 = t00, t30 = t00, t31 = t00;
  for (int l = 0; l < d; l++) {
    prd_v4d y0, y1;
    memcpy(&y0, p + (size_t) 4 * l, sizeof y0);
    memcpy(&y1, p1 + (size_t) 4 * l, sizeof y1);
    double x0 = q0[(size_t) l * s0], x1 = q1[(size_t) l * s1],
           x2 = q2[(size_t) l * s2], x3 = q3[(size_t) l * s3];
    prd_v4d a0 = {x0, x0, x0, x0}, a1 = {x1, x1, x1, x1},
            a2 = {x2, x2, x2, x2}, a3 = {x3, x3, x3, x3};
    prd_v4d u00 = a0 - y0, u01 = a0 - y1, u10 = a1 - y0, u11 = a1 - y1,
            u20 = a2 - y0, u21 = a2 - y1, u30 = a3 - y0, u31 = a3 - y1;
    t00 += u00 * u00;
    t01 += u01 * u01;
    t10 += u10 * u10;
    t11 += u11 * u11;
    t20 += u20 * u20;
    t21 += u21 * u21;
    t30 += u30 * u30;
    t31 += u31 * u31;
  }
  prd_v4d t[8] = {t00, t01, t10, t11, t20, t21, t30, t31};
  for (int u = 0; u < 4; u++) {
    memcpy(out + 8 * u, &t[2 * u], 4 * sizeof(double));
    memcpy(out + 8 * u + 4, &t[2 * u + 1], 4 * sizeof(double));
  }
#else
  for (int u = 0; u < 4; u++)
    for (int v = 0; v < 8; v++) {
      const double *y = (v < 4 ? p : p1) + (v % 4);
      double t = 0.0;
      for (int l = 0; l < d; l++) {
        double w = q[u][(size_t) l * qs[u]] - y[(size_t) 4 * l];
        t += w * w;
      }
      out[8 * u + v] = t;
    }
#endif
}

/* With panels: the exact distances of every pair of the tile's rows and
 * the columns [c0, c1). In high dimension nearly every pair lies within
 * reach of a ppr ball and needs its exact distance; computed row by row,
 * each row of A would read all of B from memory. Here a sub-block of bsub
 * rows of B stays in the cache while the tile's rows pass over it four at
 * a time. */
static double dec_panels(dec_handler *c, const prd_span *s, int c0, int c1,
                         double *eb) {
  int mm = s->mm, d = c->d;
  double out[32];
  for (int b0 = c0; b0 < c1; b0 += c->bsub) {
    int b1 = c1 - b0 < c->bsub ? c1 : b0 + c->bsub;
    for (int i = 0; i < mm; i += 4) {
      int ni = mm - i < 4 ? mm - i : 4;
      const double *q[4];
      size_t qs[4];
      for (int u = 0; u < 4; u++)
        q[u] = rows_at(&c->ra->orig, s->i0 + i + (u < ni ? u : 0), &qs[u]);
      for (int b = b0; b < b1; b += 8) {
        exact_4x8(q, qs, c->panel + (size_t) (b / 4) * 4 * d, d, out);
        int nv = b1 - b < 8 ? b1 - b : 8;
        for (int u = 0; u < ni; u++) {
          double *e = eb + (size_t) (i + u) * CROSS_BLOCK + (b - c0);
          for (int v = 0; v < nv; v++) e[v] = out[8 * u + v];
        }
      }
    }
  }
  return (double) mm * (c1 - c0);
}

static void dec_begin(void *h, int m, int nb, int nt) {
  dec_handler *c = (dec_handler *) h;
  c->exc = (double *) prd_scratch(
    PRD_SCR_EXACT, (size_t) nt * m * CROSS_BLOCK * sizeof(double));
  c->cbuf = (int *) R_alloc((size_t) nt * CROSS_BLOCK, sizeof(int));
  c->vbuf = (double *) R_alloc((size_t) nt * CROSS_BLOCK, sizeof(double));
  c->m = m;
  c->nblk = (nb + CROSS_BLOCK - 1) / CROSS_BLOCK;
  size_t np = (size_t) c->nblk * m;
  size_t nc = np * (c->nk > 0 ? c->nk : 1);
  c->pa_ipr = c->ipr ? (int *) R_alloc(nc, sizeof(int)) : NULL;
  c->pa_cov = c->cov ? (int *) R_alloc(nc, sizeof(int)) : NULL;
  c->pa_pp = c->ppr ? (prd_lprod *) R_alloc(np, sizeof(prd_lprod)) : NULL;
}

/* The end of block `blk` of A's rows for B's rows [b0, b1): their
 * partial ppr sums onto the totals (and into column blk of parts), then
 * from 0 again */
static void dec_flush(dec_handler *c, int nB, int blk, int b0, int b1) {
  prd_lprod *part = c->part;
  double *tot = c->psum_b;
  double *col = c->parts ? c->parts + (size_t) blk * nB : NULL;
  for (int b = b0; b < b1; b++) {
    double v = lprod_log(&part[b]);
    tot[b] += v;
    if (col) col[b] = v;
    part[b].m = 1.0;
    part[b].e = 0;
  }
}

/* The pairs of the tile's rows and the columns [b0, b1) (block k = b0 /
 * CROSS_BLOCK), both sides: B's outputs directly, A's into block k's
 * partials */
static double dec_block(void *h, const prd_span *s, int b0, int b1,
                        int tid) {
  dec_handler *c = (dec_handler *) h;
  const prd_ref *ra = c->ra, *rb = c->rb;
  int nB = s->nb, nb = b1 - b0, mm = s->mm, d = c->d, nk = c->nk;
  int k = b0 / CROSS_BLOCK, closed = c->closed, ipr = c->ipr, cov = c->cov,
      ppr = c->ppr;
  double ne = 0.0;
  double *eb = c->exc + (size_t) tid * c->m * CROSS_BLOCK;
  if (c->panel) ne += dec_panels(c, s, b0, b1, eb);
  double *vb = c->vbuf + (size_t) tid * CROSS_BLOCK;
  int *cand = c->cbuf + (size_t) tid * CROSS_BLOCK;
  const double *u_a = c->u_a, *u_b = c->u_b + b0, *cn = s->cn + b0;
  /* A's side: block k's partials, row i of the tile at i */
  cross_side sa = c->sa;
  size_t off = (size_t) k * c->m * (nk > 0 ? nk : 1);
  sa.ld_out = (size_t) c->m;
  if (ipr) {
    sa.in_ot = c->pa_ipr + off;
    for (int kk = 0; kk < nk; kk++)
      for (int i = 0; i < mm; i++) sa.in_ot[(size_t) kk * c->m + i] = 0;
  }
  if (cov) {
    sa.ot_in = c->pa_cov + off;
    for (int kk = 0; kk < nk; kk++)
      for (int i = 0; i < mm; i++) sa.ot_in[(size_t) kk * c->m + i] = 0;
  }
  if (ppr) {
    sa.pp = c->pa_pp + (size_t) k * c->m;
    for (int i = 0; i < mm; i++) sa.pp[i] = (prd_lprod) {1.0, 0};
  }
  const cross_side *sb = &c->sb;
  int fast = ppr && !c->panel && ra->orig.rm && rb->orig.rm;
  for (int i = 0; i < mm; i++) {
    int a = s->i0 + i;
    double ua = u_a[a];
    if (ppr && a > 0 && a % PRD_PPR_BLOCK == 0)
      dec_flush(c, nB, a / PRD_PPR_BLOCK - 1, b0, b1);
    tile_row(s->t, s->tld, i, b0 - s->tc0, nb, s->qn[i], cn, vb);
    int nc = prd_compact_reach(vb, nb, ua, u_b, cand);
    /* the block's exact distances of row i (ec[j]: column b0 + j) */
    double *ec = eb + (size_t) i * CROSS_BLOCK;
    /* with ppr, most pairs under the bound need their exact distance
     * (ppr's terms are computed from it): several pairs at a time, each
     * summed in its own order (the same values as pair_exact()); eight
     * in vector lanes where the rows are row-major (d >= 16), else four */
    if (fast) {
      ne += exact_reach_rm(ra->orig.rm + (size_t) a * d,
                           rb->orig.rm + (size_t) b0 * d, d, cand, nc, vb,
                           c->preach, ec);
    } else if (ppr && !c->panel) {
      int q4[4], n4 = 0;
      double t4[4];
      for (int t = 0; t < nc; t++) {
        int j = cand[t];
        if (vb[j] > c->preach) {
          ec[j] = -1.0;
          continue;
        }
        q4[n4++] = b0 + j;
        if (n4 == 4) {
          pair_exact4(&ra->orig, a, &rb->orig, q4, d, t4);
          for (int u = 0; u < 4; u++) ec[q4[u] - b0] = t4[u];
          ne += 4.0;
          n4 = 0;
        }
      }
      for (int t = 0; t < n4; t++)
        ec[q4[t] - b0] = pair_exact(&ra->orig, a, &rb->orig, q4[t], d);
      ne += n4;
    }
    for (int t = 0; t < nc; t++) {
      int j = cand[t], b = b0 + j;
      double v = vb[j];
      /* A's visit computes the exact distance where a decision needs it
       * (unless known: with ppr) and leaves it for B's */
      ne += cross_visit(&sa, a, i, b, v, &ra->orig, &rb->orig, d, nk,
                        closed, ipr, cov, ppr, ec + j, ppr, 1);
      ne += cross_visit(sb, b, b, a, v, &rb->orig, &ra->orig, d, nk, closed,
                        ipr, cov, ppr, ec + j, 1, 0);
    }
  }
  return ne;
}

/* After every block: row i's counts and ppr product from the blocks'
 * partials, in block order */
static double dec_reduce(void *h, const prd_span *s, int i, int tid) {
  (void) tid;
  dec_handler *c = (dec_handler *) h;
  int a = s->i0 + i, nk = c->nk, m = c->m;
  size_t bs = (size_t) m * (nk > 0 ? nk : 1);
  for (int kk = 0; kk < nk; kk++) {
    size_t o = (size_t) kk * m + i, out = (size_t) a + (size_t) kk * c->ld_a;
    if (c->ipr) {
      int t = 0;
      for (int k = 0; k < c->nblk; k++) t += c->pa_ipr[(size_t) k * bs + o];
      c->ipr_a[out] += t;
    }
    if (c->cov) {
      int t = 0;
      for (int k = 0; k < c->nblk; k++) t += c->pa_cov[(size_t) k * bs + o];
      c->cov_a[out] += t;
    }
  }
  if (c->ppr) {
    prd_lprod p = {1.0, 0};
    for (int k = 0; k < c->nblk; k++) {
      const prd_lprod *q = &c->pa_pp[(size_t) k * m + i];
      lprod_mul(&p, q->m);
      p.e += q->e;
    }
    c->psum_a[a] = lprod_log(&p);
  }
  return 0.0;
}


void prd_cross(const prd_rows *A, const prd_rows *B, int d,
               const double *centre, const prd_prec *prec,
               const prd_cross_spec *cs, int threads, prd_progress *prog) {
  int nA = A->n, nB = B->n, nk = cs->nk;
  if (nA <= 0 || nB <= 0 || !(cs->ipr || cs->cov || cs->ppr)) return;
  prd_ref ra, rb;
  prd_ref_init(&ra, A, d, 0, centre, prec, PRD_SCR_REF_A);
  /* with ppr in high dimension B's copy for the exact distances is in
   * panels of four rows (dec_panels()) */
  prd_ref_init(&rb, B, d, cs->ppr && d >= PPR_PANEL_D, centre, prec,
               PRD_SCR_REF_B);
  cross_side sa = {cs->own_a, cs->own_b, (size_t) cs->ld_a, (size_t) cs->ld_b,
                   cs->ipr_a, cs->cov_a, (size_t) cs->ld_a, NULL, cs->R_b,
                   cs->R_b * cs->R_b,
                   ra.tol_rel > rb.tol_rel ? ra.tol_rel : rb.tol_rel,
                   ra.tol_abs > rb.tol_abs ? ra.tol_abs : rb.tol_abs,
                   rb.norm2_max, ra.norm2};
  cross_side sb = {cs->own_b, cs->own_a, (size_t) cs->ld_b, (size_t) cs->ld_a,
                   cs->ipr_b, cs->cov_b, (size_t) cs->ld_b, NULL, cs->R_a,
                   cs->R_a * cs->R_a,
                   sa.tol_rel, sa.tol_abs, ra.norm2_max, rb.norm2};
  /* A pair can change an output only when its distance is within a
   * window of one of its thresholds: the own radii of its two rows (every
   * k) and the two ppr radii. u_a[a], u_b[b] bound those of each row, so
   * a pair above max(u_a[a], u_b[b]) is decided "outside" for every
   * output without a visit (the visit would decide the same: every
   * threshold's window lies below the bound), and the visits, in the same
   * order as without the bound, leave every count and sum as they were. */
  double TB = prd_window0(sa.tol_rel, ra.norm2_max, rb.norm2_max,
                          sa.tol_abs);
  double P = 0.0;
  if (cs->ppr) {
    double pa = cs->R_a * cs->R_a, pb = cs->R_b * cs->R_b;
    P = pa > pb ? pa : pb;
  }
  double *u_a = (double *) R_alloc(nA, sizeof(double));
  double *u_b = (double *) R_alloc(nB, sizeof(double));
  for (int side = 0; side < 2; side++) {
    int n = side == 0 ? nA : nB;
    const double *own = side == 0 ? cs->own_a : cs->own_b;
    size_t ld = (size_t) (side == 0 ? cs->ld_a : cs->ld_b);
    double *u = side == 0 ? u_a : u_b;
    for (int i = 0; i < n; i++) {
      double t = P;
      if (cs->ipr || cs->cov)
        for (int kk = 0; kk < nk; kk++) {
          double r = own[(size_t) i + (size_t) kk * ld];
          if (r > t) t = r;
        }
      /* prd_window(t, TB) is the widest window; the
       * factor over it covers the rounding of the bound itself */
      u[i] = (t * (1.0 + PRD_WINDOW_REL) + TB) * (1.0 + 1e-12) + DBL_MIN;
    }
  }
  /* pairs within reach of a ppr ball (as u_a, u_b with t = P) */
  double preach = (P * (1.0 + PRD_WINDOW_REL) + TB) * (1.0 + 1e-12) +
                  DBL_MIN;
  dec_handler c;
  memset(&c, 0, sizeof(c));
  c.sa = sa;
  c.sb = sb;
  c.ra = &ra;
  c.rb = &rb;
  c.u_a = u_a;
  c.u_b = u_b;
  c.preach = preach;
  c.d = d;
  c.nk = nk;
  c.closed = cs->closed;
  c.ipr = cs->ipr;
  c.cov = cs->cov;
  c.ppr = cs->ppr;
  c.ipr_a = cs->ipr_a;
  c.cov_a = cs->cov_a;
  c.ld_a = (size_t) cs->ld_a;
  c.psum_a = cs->ppr_a;
  if (cs->ppr) {
    c.part = (prd_lprod *) R_alloc(nB, sizeof(prd_lprod));
    for (int b = 0; b < nB; b++) c.part[b] = (prd_lprod) {1.0, 0};
    c.psum_b = cs->ppr_b;
    c.parts = cs->ppr_parts;
    c.sb.pp = c.part;
  }
  if (rb.orig.rm && rb.orig.rm_panel) {
    /* B's rows in panels of four, the last ones padded with zero rows: the
     * reference's own copy of the rows as given (prd_ref_init()), which
     * the exact recomputations read too (one copy of B, not two: 800 MB
     * at 50,000 x 2,048) */
    c.panel = rb.orig.rm;
    /* rows of B per block: 512 KiB of them, a multiple of 8 */
    int bs = (int) (524288 / ((size_t) 8 * d)) / 8 * 8;
    c.bsub = bs < 8 ? 8 : bs > CROSS_BLOCK ? CROSS_BLOCK : bs;
  }
  prd_handler h = {dec_begin, dec_reduce, NULL, NULL, CROSS_BLOCK,
                   dec_block, 1};
  prd_sweep_spec sw = {&rb, &ra, NULL, 0, (double) (nA + nB), (double) nA};
  prd_sweep(&sw, &h, &c, threads, prog);
  if (cs->ppr) dec_flush(&c, nB, (nA - 1) / PRD_PPR_BLOCK, 0, nB);
}
