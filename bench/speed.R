# Speed benchmarks of the engine (issue 11), each case a ratio measured in
# one fresh Rscript process: the package's time and the float64 product
# time (R's BLAS, tcrossprod() in blocks of 4,096 rows, on data of the
# same shapes) of the pairs it needs.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/speed.R curves N D      four curves, split 0.5
#   Rscript bench/speed.R scalars N D     four scalars, no split
#   Rscript bench/speed.R models N D      4 models vs 1, no split (see models.R)
#   Rscript bench/speed.R future N D      four curves, multisession (2) vs sequential
#   Rscript bench/speed.R precision N D   four curves, split 0.5, products in
#                                         single (best of 3 calls) vs double
#                                         precision, with the float64 and
#                                         float32 product times (best of 2)
# Each prints one line "RESULT ..." (read by bench/run-speed.sh); the
# precision case also prints its table row.
args <- commandArgs(trailingOnly = TRUE)
what <- args[1]
n <- as.integer(args[2])
d <- as.integer(args[3])
suppressPackageStartupMessages(library(prdcurve))

source("bench/common.R")
dat <- bench_data(n, d)
real <- dat$real
gen <- dat$generated
rm(dat)

# float64 products a %*% t(b) in row blocks of 4,096
prod_time <- function(a, b) {
  t <- 0
  for (i0 in seq(1L, nrow(a), by = 4096L)) {
    blk <- a[i0:min(nrow(a), i0 + 4095L), , drop = FALSE]
    t <- t + system.time(p <- tcrossprod(blk, b))[["elapsed"]]
    rm(p)
  }
  t
}
invisible(tcrossprod(real[1:256, ], gen[1:256, ]))

# C product times of the pairs a b' in the engine's tiles (512 rows of a
# against all of b, one dgemm or sgemm of depth d each): R has no float32
# product, so a small C program is compiled against R's BLAS. Returns
# c(float64 s, float32 s), NA when the BLAS has no sgemm.
c_prod_time <- function(na, nb, d) {
  out <- run_c_program(c(
    "#include <stdio.h>", "#include <stdlib.h>", "#include <time.h>",
    "extern void dgemm_(const char *, const char *, const int *, const int *,",
    "  const int *, const double *, const double *, const int *,",
    "  const double *, const int *, const double *, double *, const int *,",
    "  size_t, size_t);",
    "extern void sgemm_(const char *, const char *, const int *, const int *,",
    "  const int *, const float *, const float *, const int *,",
    "  const float *, const int *, const float *, float *, const int *,",
    "  size_t, size_t);",
    "static double now(void) { struct timespec t;",
    "  clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }",
    "int main(int argc, char **argv) {",
    "  int na = atoi(argv[1]), nb = atoi(argv[2]), d = atoi(argv[3]), m = 512;",
    "  size_t la = (size_t) na * d, lb = (size_t) nb * d;",
    "  double *A = malloc(la * 8), *B = malloc(lb * 8), *C = malloc((size_t) m * nb * 8);",
    "  float *Af = malloc(la * 4), *Bf = malloc(lb * 4), *Cf = malloc((size_t) m * nb * 4);",
    "  srand(1);",
    "  for (size_t i = 0; i < la; i++) Af[i] = A[i] = rand() / (double) RAND_MAX - 0.5;",
    "  for (size_t i = 0; i < lb; i++) Bf[i] = B[i] = rand() / (double) RAND_MAX - 0.5;",
    "  double al = -2, be = 0; float alf = -2, bef = 0; double best[2] = {1e300, 1e300};",
    "  for (int rep = 0; rep < 2; rep++) for (int p = 0; p < 2; p++) {",
    "    double t0 = now();",
    "    for (int i0 = 0; i0 < na; i0 += m) {",
    "      int mm = na - i0 < m ? na - i0 : m;",
    '      if (p == 0) dgemm_("N", "T", &nb, &mm, &d, &al, B, &nb, A + i0, &na, &be, C, &nb, 1, 1);',
    '      else sgemm_("N", "T", &nb, &mm, &d, &alf, Bf, &nb, Af + i0, &na, &bef, Cf, &nb, 1, 1);',
    "    }",
    "    double t = now() - t0; if (t < best[p]) best[p] = t;",
    "  }",
    '  printf("%.4f %.4f\\n", best[0], best[1]);',
    "  return 0;",
    "}"), c(na, nb, d))
  if (is.null(out)) c(NA_real_, NA_real_) else out[[1]]
}

if (what == "precision") {
  methods <- c("knn", "kde", "ipr", "coverage")
  h <- round(n / 2)
  # products now: E F' and half of X_f X_f' + Y_f Y_f' (symmetric own radii)
  xf <- real[1:h, , drop = FALSE]
  F <- rbind(xf, gen[1:h, , drop = FALSE])
  E <- rbind(real[-(1:h), , drop = FALSE], gen[-(1:h), , drop = FALSE])
  t_r64 <- prod_time(E, F) + prod_time(xf, xf)
  rm(F, E, xf)
  invisible(gc())
  t_c <- c_prod_time(n, n, d) + c_prod_time(h, h, d)
  # the engine's exact recomputations and precision, per engine call
  calls <- new.env()
  calls$exact <- 0
  calls$precision <- character()
  suppressMessages(trace(
    "engine_neighbours", where = asNamespace("prdcurve"), print = FALSE,
    exit = quote({
      calls$exact <- calls$exact + attr(returnValue(), "exact")
      calls$precision <- c(calls$precision, attr(returnValue(), "precision"))
    })))
  run <- function(precision) {
    options(prdcurve.precision = precision)
    calls$exact <- 0
    calls$precision <- character()
    set.seed(2026)
    el <- system.time(cv <- prd_curve(real, gen, method = methods))[["elapsed"]]
    list(cv = cv, seconds = el, exact = calls$exact,
         precision = paste(unique(calls$precision), collapse = "+"))
  }
  # warm-up (both code paths loaded), then each precision once
  for (p in c("single", "double")) {
    options(prdcurve.precision = p)
    suppressWarnings(prd_curve(real[1:200, ], gen[1:200, ], method = methods))
  }
  # the package's time as the C products' (best of 2 there): the best of
  # 3 calls, each identical
  d64 <- run("double")
  s <- run("single")
  for (rep in 1:2) {
    s2 <- run("single")
    stopifnot(identical(s2$cv, s$cv))
    if (s2$seconds < s$seconds) s <- s2
  }
  stopifnot(identical(s$cv, d64$cv))
  # pairs visited: E F' (n x n) and own radii over X_f, Y_f (2 h^2)
  pairs <- as.double(n) * n + 2 * as.double(h) * h
  k <- as.integer(s$cv$k[1])
  cat(sprintf("RESULT %.2f %.2f %.2f %.2f %.2f %.0f %.0f %d %s\n",
              s$seconds, d64$seconds, t_r64, t_c[1], t_c[2], s$exact,
              d64$exact, k, s$precision))
  f <- function(x, digits = 2) formatC(x, format = "f", digits = digits,
                                       big.mark = ",")
  cat(sprintf("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
              format(n, big.mark = ","), format(d, big.mark = ","), k,
              f(s$seconds), f(d64$seconds), f(d64$seconds / s$seconds),
              f(t_r64), f(t_c[1]), f(t_c[2]), f(t_c[1] / t_c[2]),
              f(s$exact / (2 * n), 1), f(d64$exact / (2 * n), 1),
              formatC(100 * (s$exact - d64$exact) / pairs, format = "f",
                      digits = 4)))
} else if (what == "curves" || what == "future") {
  methods <- c("knn", "kde", "ipr", "coverage")
  h <- round(n / 2)
  xf <- real[1:h, , drop = FALSE]
  yf <- gen[1:h, , drop = FALSE]
  F <- rbind(xf, yf)
  E <- rbind(real[-(1:h), , drop = FALSE], gen[-(1:h), , drop = FALSE])
  t_ef <- prod_time(E, F)
  t_own <- prod_time(xf, xf) + prod_time(yf, yf)
  rm(F, E, xf, yf)
  invisible(gc())
  if (what == "future") {
    set.seed(2026)
    t_seq <- system.time(a <- prd_curve(real, gen, method = methods))[["elapsed"]]
    future::plan(future::multisession, workers = 2)
    invisible(future.apply::future_lapply(1:2, function(i) i))
    set.seed(2026)
    t_par <- system.time(b <- prd_curve(real, gen, method = methods))[["elapsed"]]
    future::plan(future::sequential)
    stopifnot(identical(a, b))
    cat(sprintf("RESULT %.2f %.2f %.2f\n", t_seq, t_par, t_ef))
  } else {
    set.seed(2026)
    el <- system.time(cv <- prd_curve(real, gen, method = methods))[["elapsed"]]
    # old pairs: E F' + F F' (F F' as E F' in size); now: E F' + own radii
    # symmetric (half of X_f X_f' + Y_f Y_f')
    cat(sprintf("RESULT %.2f %.2f %.2f %.2f %.0f %d\n", el, t_ef,
                2 * t_ef, t_ef + t_own / 2, vm_hwm_mib(), as.integer(cv$k[1])))
  }
} else if (what == "scalars") {
  t_xx <- prod_time(real, real)
  t_yy <- prod_time(gen, gen)
  t_xy <- prod_time(real, gen)
  metrics <- c("precision", "recall", "density", "coverage")
  el <- system.time(m <- manifold_metrics(real, gen, metrics = metrics))[["elapsed"]]
  # prdc's products: X X' + Y Y' + X Y'; the package's: halves of the
  # first two and X Y' once
  cat(sprintf("RESULT %.2f %.2f %.2f %.0f\n", el, t_xx + t_yy + t_xy,
              (t_xx + t_yy) / 2 + t_xy, vm_hwm_mib()))
}
