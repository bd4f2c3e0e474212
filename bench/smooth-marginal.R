# The smoothed marginal family (R/family-smooth.R) on independent
# heavy-tailed coordinates, against the true AUC, the exact log-likelihood
# ratio on the same evaluation rows (the oracle floor), the `marginal`
# family (raw histograms) and the default curve.
#
# Scenario: d independent coordinates, Student t (3 df) or Laplace, the
# generated set's coordinates 1.1 times wider (heavy_draw(), heavy_logdens():
# the data of the validity suite's heavy_t3 and heavy_laplace groups,
# R/validity-kinds.R). Truth: prd_truth() from the exact log-densities
# (Monte Carlo, `mc` draws each). One split (half of
# each set for evaluation): the smoothed family fitted once on the fit
# rows, read on the evaluation rows (curve_from_scores()); "marginal" and
# "tightest" in prd_curve() with that split as rows (default folds). Time:
# the smoothed family's fit and scores against prd_curve(method = "knn")
# on the same split (elapsed, medians of `reps`).
#
# Usage (package root): Rscript bench/smooth-marginal.R [--dims 256,512]
#   [--sizes 2000,5000] [--mc 50000] [--reps 3]
suppressPackageStartupMessages(pkgload::load_all(quiet = TRUE))
options(prdcurve.progress = FALSE, width = 150)
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  i <- match(paste0("--", name), args)
  if (is.na(i)) default else as.numeric(strsplit(args[i + 1L], ",")[[1]])
}
dims <- opt("dims", c(256, 512))
sizes <- opt("sizes", c(2000, 5000))
mc <- opt("mc", 50000)
reps <- opt("reps", 3)
lambda <- lambda_grid(1001)
auc_of <- function(a, b) envelope_auc(lambda, curve_from_scores(a, b, lambda))

draw <- heavy_draw
logdens <- heavy_logdens

rows <- list()
for (d in dims) for (n in sizes) for (kind in c("t3", "laplace")) {
  set.seed(d + n)
  x <- draw(kind, n, d, 1)
  y <- draw(kind, n, d, 1.1)
  ex <- sort(sample.int(n, n / 2))
  ey <- sort(sample.int(n, n / 2))
  fx <- setdiff(seq_len(n), ex)
  fy <- setdiff(seq_len(n), ey)
  truth <- summary(prd_truth(function(z) logdens(kind, z, 1),
                             function(z) logdens(kind, z, 1.1),
                             function(m) draw(kind, m, d, 1),
                             function(m) draw(kind, m, d, 1.1), n = mc))$auc
  lr <- function(z) logdens(kind, z, 1.1) - logdens(kind, z, 1)
  oracle <- auc_of(lr(x[ex, ]), lr(y[ey, ]))
  t0 <- proc.time()[["elapsed"]]
  f <- fit_smooth_marginal(x, y, fx, fy)
  sm <- auc_of(f$score(x, ex), f$score(y, ey))
  t_sm <- proc.time()[["elapsed"]] - t0
  cv <- suppressWarnings(prd_curve(x, y, method = c("marginal", "tightest"),
                                   split = list(real = ex, generated = ey)))
  s <- summary(cv)
  rows[[length(rows) + 1L]] <- data.frame(
    d = d, n = n, coords = kind, truth = round(truth, 3),
    oracle = round(oracle, 3), smooth = round(sm, 3),
    marginal = round(s$auc[s$method == "marginal"], 3),
    tightest = round(s$auc[s$method == "tightest"], 3),
    bandwidth = f$settings$bandwidth, kept = f$settings$columns_kept,
    fit_s = round(t_sm, 2))
  message(paste(format(rows[[length(rows)]]), collapse = " "))
}
r <- do.call(rbind, rows)
cat("\nAUC: truth (Monte Carlo, ", mc, " draws), oracle floor, families\n",
    sep = "")
print(r, row.names = FALSE)
err <- function(v) round(mean(abs(r[[v]] - r$truth)), 3)
cat("\nmean |AUC - truth|: oracle", err("oracle"), " smooth", err("smooth"),
    " marginal", err("marginal"), " tightest", err("tightest"), "\n")

set.seed(7)
n <- 5000
x <- draw("t3", n, 256, 1)
y <- draw("t3", n, 256, 1.1)
ex <- sort(sample.int(n, n / 2))
ey <- sort(sample.int(n, n / 2))
tm <- function(expr) {
  median(vapply(seq_len(reps), function(i) {
    system.time(force(expr()))[["elapsed"]]
  }, numeric(1)))
}
t_knn <- tm(function() {
  suppressWarnings(prd_curve(x, y, method = "knn",
                             split = list(real = ex, generated = ey)))
})
t_sm <- tm(function() {
  f <- fit_smooth_marginal(x, y, setdiff(seq_len(n), ex), setdiff(seq_len(n), ey))
  auc_of(f$score(x, ex), f$score(y, ey))
})
cat(sprintf("\ntime at 5,000 x 256 (medians of %d): knn %.2f s, smooth %.2f s (%.2f x knn)\n",
            reps, t_knn, t_sm, t_sm / t_knn))
