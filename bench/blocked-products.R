# How much of issue 17's "1.3x sgemm" budget at d > 256 the products alone
# take in the engine's blocking. A C program (compiled here with R's
# compiler and BLAS) times, on the same float matrices, tiles of 512 query
# rows against every reference row:
#   - plain: one sgemm of full depth per tile (what bench/speed.R's C
#     reference does, the BLAS's own threads);
#   - own sum: the engine's scheme with any BLAS but OpenBLAS
#     (src/products.c): the BLAS serial, the tile's query columns split
#     between 2 OpenMP threads, chunks of 1,024 reference rows, one sgemm
#     per block of 256 coordinates into a buffer, the blocks summed in
#     float by the engine;
#   - without the sum: the same sgemm calls, the float sum left out (its
#     share of that scheme's cost);
#   - beta = 1: the engine's scheme with OpenBLAS, each block's sgemm
#     adding to the tile (beta = 1), no buffer and no sum pass, over the
#     whole tile (no chunks: nothing needs them in cache);
#   - beta = 1 in chunks: the same in chunks of 1,024 reference rows (the
#     engine's scheme in 0.5.8 before the chunks went).
# Nothing else of a curve call is done (no selection, no recomputation,
# no gathering from double, no checks), so engine / plain is a floor for
# the four curves' ratio to sgemm at this size.
#
# Usage (package root):
#   Rscript bench/blocked-products.R [n] [d] [runs]      (10000 2048 3)
# Prints one line per run and "RESULT n d plain own_sum nosum beta1
# beta1_chunks" (medians).
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.integer(args[1]) else 10000L
d <- if (length(args) >= 2) as.integer(args[2]) else 2048L
runs <- if (length(args) >= 3) as.integer(args[3]) else 3L

source("bench/common.R")
prog <- c(
  "#define _GNU_SOURCE",
  "#include <stdio.h>", "#include <stdlib.h>", "#include <time.h>",
  "#include <dlfcn.h>", "#include <omp.h>",
  "extern void sgemm_(const char *, const char *, const int *, const int *,",
  "  const int *, const float *, const float *, const int *, const float *,",
  "  const int *, const float *, float *, const int *, size_t, size_t);",
  "typedef void (*set_fn)(int);",
  "static set_fn blas_set;",
  "static double now(void) { struct timespec t;",
  "  clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }",
  "static void engine_tile(int nb, int na, int d, const float *B, int ldb,",
  "                        const float *A, int lda, float *C, float *gbuf, int sum) {",
  "  /* sum: 1 the engine's float sum, 0 none, 2 sgemm with beta = 1 over",
  "   * the whole tile, 3 the same in chunks of 1,024 rows */",
  "  if (blas_set) blas_set(1);",
  "#pragma omp parallel num_threads(2)",
  "  {",
  "    int me = omp_get_thread_num(), team = omp_get_num_threads();",
  "    int c0 = (int) ((long) na * me / team), nc = (int) ((long) na * (me + 1) / team) - c0;",
  "    float *gb = gbuf + (size_t) me * 1024 * 512, *gs = C + (size_t) c0 * nb;",
  "    const float *Af = A + c0;",
  "    float al = -2, be = 0; int kb0 = d < 256 ? d : 256;",
  "    int ch = sum == 2 ? nb : 1024;",
  "    for (int j0 = 0; j0 < nb; j0 += ch) {",
  "      int jb = nb - j0 < ch ? nb - j0 : ch;",
  '      sgemm_("N", "T", &jb, &nc, &kb0, &al, B + j0, &ldb, Af, &lda, &be, gs + j0, &nb, 1, 1);',
  "      for (int l0 = 256; l0 < d; l0 += 256) {",
  "        int kb = d - l0 < 256 ? d - l0 : 256; float one = 1;",
  "        if (sum >= 2) { /* beta = 1: the block added by sgemm */",
  '          sgemm_("N", "T", &jb, &nc, &kb, &al, B + j0 + (size_t) l0 * ldb, &ldb,',
  "                 Af + (size_t) l0 * lda, &lda, &one, gs + j0, &nb, 1, 1);",
  "          continue;",
  "        }",
  '        sgemm_("N", "T", &jb, &nc, &kb, &al, B + j0 + (size_t) l0 * ldb, &ldb,',
  "               Af + (size_t) l0 * lda, &lda, &be, gb, &jb, 1, 1);",
  "        if (sum == 1) for (int c = 0; c < nc; c++) {",
  "          float *g = gs + (size_t) c * nb + j0; const float *b = gb + (size_t) c * jb;",
  "          for (int j = 0; j < jb; j++) g[j] += b[j];",
  "        }",
  "      }",
  "    }",
  "  }",
  "  if (blas_set) blas_set(2);",
  "}",
  "int main(int argc, char **argv) {",
  "  int n = atoi(argv[1]), d = atoi(argv[2]), m = 512;",
  "  blas_set = (set_fn) dlsym(RTLD_DEFAULT, \"openblas_set_num_threads\");",
  "  size_t len = (size_t) n * d;",
  "  float *A = malloc(len * 4), *B = malloc(len * 4), *C = malloc((size_t) m * n * 4);",
  "  float *gb = malloc((size_t) 2 * 1024 * 512 * 4), *At = malloc((size_t) m * d * 4);",
  "  srand(1);",
  "  for (size_t i = 0; i < len; i++) A[i] = rand() / (double) RAND_MAX - 0.5;",
  "  for (size_t i = 0; i < len; i++) B[i] = rand() / (double) RAND_MAX - 0.5;",
  "  float al = -2, be = 0; double best[5] = {1e300, 1e300, 1e300, 1e300, 1e300};",
  "  for (int rep = 0; rep < 3; rep++) for (int p = 0; p < 5; p++) {",
  "    double t0 = now();",
  "    for (int i0 = 0; i0 < n; i0 += m) {",
  "      int mm = n - i0 < m ? n - i0 : m;",
  '      if (p == 0) sgemm_("N", "T", &n, &mm, &d, &al, B, &n, A + i0, &n, &be, C, &n, 1, 1);',
  "      else {",
  "        for (int l = 0; l < d; l++) for (int i = 0; i < mm; i++)",
  "          At[(size_t) l * mm + i] = A[(size_t) l * n + i0 + i];",
  "        engine_tile(n, mm, d, B, n, At, mm, C, gb, p == 1 ? 1 : p == 2 ? 0 : p - 1);",
  "      }",
  "    }",
  "    double t = now() - t0; if (t < best[p]) best[p] = t;",
  "  }",
  '  printf("%.4f %.4f %.4f %.4f %.4f\\n", best[0], best[1], best[2], best[3], best[4]);',
  "  return 0;",
  "}")
res <- t(vapply(seq_len(runs), function(r) {
  x <- run_c_program(prog, c(n, d), flags = "-fopenmp -ldl")
  if (is.null(x)) stop("could not compile the C program against R's BLAS")
  x <- x[[1]]
  cat(sprintf(paste("run %d: plain %.3f s, own sum %.3f s (%.3fx), without the",
                    "sum %.3f s (%.3fx), beta = 1 %.3f s (%.3fx), beta = 1 in",
                    "chunks %.3f s (%.3fx)\n"),
              r, x[1], x[2], x[2] / x[1], x[3], x[3] / x[1], x[4], x[4] / x[1],
              x[5], x[5] / x[1]))
  x
}, numeric(5)))
med <- apply(res, 2, stats::median)
cat(sprintf("RESULT %d %d %.3f %.3f %.3f %.3f %.3f\n", n, d, med[1], med[2],
            med[3], med[4], med[5]))
ratio <- function(j) stats::median(res[, j] / res[, 1])
cat(sprintf(paste("medians of the runs' ratios to plain: own sum %.3fx, without",
                  "the sum %.3fx, beta = 1 %.3fx, beta = 1 in chunks %.3fx\n"),
            ratio(2), ratio(3), ratio(4), ratio(5)))
