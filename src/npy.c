/* Reads the payload of a NumPy .npy array into one double matrix (or one
 * double vector per column), in one pass over the bytes: any numeric dtype
 * (float16/32/64, signed and unsigned integers of 1 to 8 bytes, bool),
 * either byte order, C or Fortran order. The header is parsed in R
 * (R/read.R); this file only converts. The bytes come from the file itself
 * (read in blocks of rows, so that the only large allocation is the result)
 * or from a raw vector (a decompressed .npy.gz). */
#include "prdcurve.h"
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

enum { NPY_FLOAT = 0, NPY_INT = 1, NPY_UINT = 2, NPY_BOOL = 3 };

typedef struct {
  FILE *fp;               /* reading from a file, or */
  const unsigned char *mem; /* from memory */
  size_t pos, len;        /* position and size of the memory source */
} npy_source;

/* Fill buf with nbytes; returns 0 on a short read. */
static int npy_fill(npy_source *s, unsigned char *buf, size_t nbytes) {
  if (s->fp) return fread(buf, 1, nbytes, s->fp) == nbytes;
  if (s->len - s->pos < nbytes) return 0;
  memcpy(buf, s->mem + s->pos, nbytes);
  s->pos += nbytes;
  return 1;
}

static double half_to_double(uint16_t h) {
  int sign = (h >> 15) & 1, expo = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (expo == 0) v = ldexp((double) mant, -24);            /* subnormal */
  else if (expo == 31) v = mant ? R_NaN : R_PosInf;        /* inf, nan */
  else v = ldexp((double) (mant | 0x400), expo - 25);
  return sign ? -v : v;
}

/* The value of element e of a converted block (bytes already in native
 * order). */
static inline double npy_value(const unsigned char *p, int kind, int size) {
  switch (kind) {
  case NPY_FLOAT:
    if (size == 4) { float f; memcpy(&f, p, 4); return (double) f; }
    if (size == 8) { double d; memcpy(&d, p, 8); return d; }
    { uint16_t h; memcpy(&h, p, 2); return half_to_double(h); }
  case NPY_INT:
    switch (size) {
    case 1: return (double) *(const int8_t *) p;
    case 2: { int16_t v; memcpy(&v, p, 2); return (double) v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return (double) v; }
    default: { int64_t v; memcpy(&v, p, 8); return (double) v; }
    }
  case NPY_UINT:
    switch (size) {
    case 1: return (double) *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return (double) v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return (double) v; }
    default: { uint64_t v; memcpy(&v, p, 8); return (double) v; }
    }
  default:
    return *p ? 1.0 : 0.0;
  }
}

static void npy_swap(unsigned char *buf, size_t count, int size) {
  for (size_t e = 0; e < count; e++) {
    unsigned char *p = buf + e * (size_t) size;
    for (int a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char t = p[a]; p[a] = p[b]; p[b] = t;
    }
  }
}

/* Convert the n x d payload from `s` into the columns cols[0..d-1]. */
static int npy_convert(npy_source *s, double **cols, size_t n, size_t d,
                       int kind, int size, int swap, int fortran,
                       unsigned char *buf, size_t buf_bytes) {
  if (fortran) {
    /* column-major: consecutive elements run down a column */
    size_t total = n * d, done = 0, per = buf_bytes / (size_t) size;
    while (done < total) {
      size_t m = total - done < per ? total - done : per;
      if (!npy_fill(s, buf, m * (size_t) size)) return 0;
      if (swap) npy_swap(buf, m, size);
      for (size_t e = 0; e < m; e++) {
        size_t g = done + e;
        cols[g / n][g % n] = npy_value(buf + e * (size_t) size, kind, size);
      }
      done += m;
    }
    return 1;
  }
  /* row-major: a block of rows, then written column by column, so that the
   * writes into each column are contiguous */
  size_t row_bytes = d * (size_t) size;
  size_t rows = buf_bytes / row_bytes;
  if (rows < 1) rows = 1;
  for (size_t i0 = 0; i0 < n; i0 += rows) {
    size_t m = n - i0 < rows ? n - i0 : rows;
    if (!npy_fill(s, buf, m * row_bytes)) return 0;
    if (swap) npy_swap(buf, m * d, size);
    /* each thread writes its own columns (and takes their first-touch
     * page faults); no R API inside */
    int nt = prd_threads_for((int64_t) (m * d), prd_threads_get());
    (void) nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
    for (size_t j = 0; j < d; j++) {
      double *out = cols[j] + i0;
      const unsigned char *p = buf + j * (size_t) size;
      if (kind == NPY_FLOAT && size == 4) {
        for (size_t r = 0; r < m; r++) {
          float f;
          memcpy(&f, p + r * row_bytes, 4);
          out[r] = (double) f;
        }
      } else if (kind == NPY_FLOAT && size == 8) {
        for (size_t r = 0; r < m; r++) memcpy(out + r, p + r * row_bytes, 8);
      } else {
        for (size_t r = 0; r < m; r++)
          out[r] = npy_value(p + r * row_bytes, kind, size);
      }
    }
  }
  return 1;
}

/* ffi_npy_read(src, offset, layout, columns)
 *   src: a file path (string) or a raw vector holding the whole file;
 *   offset: byte offset of the payload (double);
 *   layout: double c(n, d, kind, size, swap, fortran);
 *   columns: TRUE for a list of d double vectors, FALSE for an n x d
 *   double matrix. */
SEXP ffi_npy_read(SEXP src, SEXP offset, SEXP layout, SEXP columns) {
  if (TYPEOF(layout) != REALSXP || XLENGTH(layout) != 6)
    Rf_error("`layout` must be a double vector of length 6");
  const double *L = REAL(layout);
  size_t n = (size_t) L[0], d = (size_t) L[1];
  int kind = (int) L[2], size = (int) L[3], swap = (int) L[4],
    fortran = (int) L[5];
  if (!(size == 1 || size == 2 || size == 4 || size == 8))
    Rf_error("unsupported element size %d", size);
  int as_cols = Rf_asLogical(columns) == TRUE;
  double off = Rf_asReal(offset);

  int nprot = 0;
  SEXP out;
  double **cols = (double **) R_alloc(d ? d : 1, sizeof(double *));
  if (as_cols) {
    out = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t) d)); nprot++;
    for (size_t j = 0; j < d; j++) {
      SET_VECTOR_ELT(out, (R_xlen_t) j, Rf_allocVector(REALSXP, (R_xlen_t) n));
      cols[j] = REAL(VECTOR_ELT(out, (R_xlen_t) j));
    }
  } else {
    out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) (n * d))); nprot++;
    prd_advise_huge(REAL(out), n * d * sizeof(double));
    for (size_t j = 0; j < d; j++) cols[j] = REAL(out) + j * n;
    SEXP dim = PROTECT(Rf_allocVector(INTSXP, 2)); nprot++;
    INTEGER(dim)[0] = (int) n;
    INTEGER(dim)[1] = (int) d;
    Rf_setAttrib(out, R_DimSymbol, dim);
  }
  /* columns V1..Vd: the dimnames of the matrix, or the names of the list
   * (set here, so that R never copies the result to name it) */
  SEXP nm = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) d)); nprot++;
  for (size_t j = 0; j < d; j++) {
    /* "V" and the decimal digits of j + 1 */
    char dig[24], lab[26];
    int nd = 0;
    for (size_t v = j + 1; v > 0; v /= 10) dig[nd++] = (char) ('0' + v % 10);
    lab[0] = 'V';
    for (int i = 0; i < nd; i++) lab[1 + i] = dig[nd - 1 - i];
    lab[1 + nd] = '\0';
    SET_STRING_ELT(nm, (R_xlen_t) j, Rf_mkChar(lab));
  }
  if (as_cols) {
    Rf_setAttrib(out, R_NamesSymbol, nm);
  } else {
    SEXP dn = PROTECT(Rf_allocVector(VECSXP, 2)); nprot++;
    SET_VECTOR_ELT(dn, 1, nm);
    Rf_setAttrib(out, R_DimNamesSymbol, dn);
  }

  npy_source s = { NULL, NULL, 0, 0 };
  if (TYPEOF(src) == RAWSXP) {
    s.mem = RAW(src);
    s.len = (size_t) XLENGTH(src);
    s.pos = (size_t) off;
    if (s.pos > s.len) Rf_error("the payload offset is past the end of the data");
  } else if (TYPEOF(src) == STRSXP && XLENGTH(src) == 1) {
    const char *path = R_ExpandFileName(Rf_translateChar(STRING_ELT(src, 0)));
    s.fp = fopen(path, "rb");
    if (!s.fp) Rf_error("can't open the file");
    if (fseek(s.fp, (long) off, SEEK_SET) != 0) {
      fclose(s.fp);
      Rf_error("can't seek to the payload");
    }
  } else {
    Rf_error("`src` must be a path or a raw vector");
  }
  /* about 4 MiB per block: a block of rows stays in cache while its
   * columns are written (4 KiB or more per column and block) */
  size_t buf_bytes = (size_t) 4 << 20;
  if (buf_bytes < d * (size_t) size) buf_bytes = d * (size_t) size;
  unsigned char *buf = (unsigned char *) R_alloc(buf_bytes, 1);
  int ok = n * d == 0 ||
    npy_convert(&s, cols, n, d, kind, size, swap, fortran, buf, buf_bytes);
  if (s.fp) fclose(s.fp);
  if (!ok) Rf_error("the file ends before its %.0f x %.0f array does",
                    (double) n, (double) d);
  UNPROTECT(nprot);
  return out;
}
