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
# Each prints one line "RESULT ..." (read by bench/run-speed.sh).
args <- commandArgs(trailingOnly = TRUE)
what <- args[1]
n <- as.integer(args[2])
d <- as.integer(args[3])
suppressPackageStartupMessages(library(prdcurve))

vm_hwm_mib <- function() {
  st <- readLines("/proc/self/status")
  as.numeric(gsub("[^0-9]", "", grep("^VmHWM", st, value = TRUE))) / 1024
}
set.seed(1)
real <- matrix(rnorm(n * d), n, d)
gen <- matrix(rnorm(n * d), n, d)
gen[, 1] <- gen[, 1] + 0.5

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

if (what == "curves" || what == "future") {
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
