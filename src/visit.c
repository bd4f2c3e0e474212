/* The visit handler: a visitor per query row, with the state of the exact
 * recomputations (prd_row), over the full sweep of query rows against a
 * reference set (prd_tiles()). */
#include "engine.h"

typedef struct {
  const prd_ref *ref;
  const prd_query *qry;
  prd_visitor visit;
  void *ctx;
  /* per thread, nr values each: the distance row (single precision; in
   * double the tile's own column), the recomputation flags and lists, the
   * candidates; and the query row as given (d values) */
  double *rowbuf, *approx, *cval, *q0;
  unsigned char *exact;
  int *touched, *cand;
} visit_handler;

static void visit_begin(void *h, int m, int nb, int nt) {
  visit_handler *v = (visit_handler *) h;
  (void) m;
  int d = v->ref->d;
  size_t len = (size_t) nt * nb;
  /* each thread's distance row: filled from the tile, then cache-resident
   * for the visitor's passes (in double precision the tile's own column) */
  v->rowbuf = v->ref->prec.single ?
    (double *) R_alloc(len, sizeof(double)) : NULL;
  v->exact = (unsigned char *) R_alloc(len, 1);
  v->touched = (int *) R_alloc(len, sizeof(int));
  v->approx = (double *) R_alloc(len, sizeof(double));
  v->cand = (int *) R_alloc(len, sizeof(int));
  v->cval = (double *) R_alloc(len, sizeof(double));
  /* each thread's query row as given, contiguous: the exact
   * recomputations read it once per pair */
  v->q0 = (double *) R_alloc((size_t) nt * (d > 0 ? d : 1), sizeof(double));
  memset(v->exact, 0, len);
}

static double visit_rows(void *h, const prd_span *s, int i, int tid) {
  visit_handler *v = (visit_handler *) h;
  int nr = s->nb, d = v->ref->d;
  size_t off = (size_t) tid * nr;
  prd_row row;
  row.i = s->i0 + i;
  row.tid = tid;
  row.d2 = v->rowbuf ? v->rowbuf + off : s->t->g + (size_t) i * nr;
  row.q_norm2 = s->qn[i];
  size_t qs;
  const double *qr = rows_at(&v->qry->rows, s->i0 + i, &qs);
  double *qc = v->q0 + (size_t) tid * d;
  for (int l = 0; l < d; l++) qc[l] = qr[(size_t) l * qs];
  row.q0 = qc;
  row.q0_stride = 1;
  row.exact = v->exact + off;
  row.touched = v->touched + off;
  row.cand = v->cand + off;
  row.cval = v->cval + off;
  row.approx = v->approx + off;
  row.n_touched = 0;
  row.acand = NULL;
  row.n_acand = 0;
  row.n_exact = 0.0;
  tile_row(s->t, nr, i, 0, nr, s->qn[i], s->cn, row.d2);
  v->visit(v->ctx, v->ref, &row);
  for (int t = 0; t < row.n_touched; t++) row.exact[row.touched[t]] = 0;
  return row.n_exact;
}

void prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
               void *ctx, int threads, prd_progress *prog) {
  visit_handler v;
  memset(&v, 0, sizeof(v));
  v.ref = ref;
  v.qry = qry;
  v.visit = visit;
  v.ctx = ctx;
  prd_handler h = {visit_begin, visit_rows, NULL, NULL, 1};
  prd_sweep_spec sw = {ref, NULL, qry, 0, 1.0, 1.0};
  prd_sweep(&sw, &h, &v, threads, prog);
}
