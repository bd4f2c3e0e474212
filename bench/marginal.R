# The `marginal` family against the truth where the coordinates are
# independent (products of their marginals), beside the families that
# were the default `tightest`'s before it and the combined curve with and
# without it. One draw per setting (seeded), split 0.5, default folds.
#
# Scenarios (real P, generated Q):
#   boxes:    U[0, 1]^d against U[s, s + 1]^d, s = 1 - 0.2^(1/d): the cubes
#             overlap in 20% of their volume, true alpha = 0.2 min(lambda,
#             1), AUC 0.04 exactly (the sanity checks' hypercube);
#   exp_rate: every coordinate Exp(1), against Exp(1.5) in the first 4
#             coordinates and Exp(1) in the rest (a generator that gets
#             a few marginals wrong; truth by Monte Carlo, prd_truth());
#   shift_1:  N(0, I) against N(e1, I) (closed form, prd_truth_gaussian()).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/marginal.R [--dims 8,64,256] [--sizes 1000,5000]
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
dims <- as.integer(strsplit(opt("dims", "8,64,256"), ",")[[1]])
sizes <- as.integer(strsplit(opt("sizes", "1000,5000"), ",")[[1]])

old_default <- c("linear", "quadratic", "stacked", "knn", "kde", "ipr",
                 "coverage")

scenario <- function(name, n, d) {
  switch(name,
    boxes = {
      s <- 1 - 0.2^(1 / d)
      list(real = matrix(stats::runif(n * d), n),
           generated = matrix(stats::runif(n * d, s, s + 1), n))
    },
    exp_rate = {
      rate <- c(rep(1.5, min(4, d)), rep(1, d - min(4, d)))
      list(real = matrix(stats::rexp(n * d), n),
           generated = matrix(stats::rexp(n * d, rep(rate, each = n)), n))
    },
    shift_1 = {
      y <- matrix(stats::rnorm(n * d), n)
      y[, 1] <- y[, 1] + 1
      list(real = matrix(stats::rnorm(n * d), n), generated = y)
    })
}

truth_auc <- function(name, d) {
  switch(name,
    boxes = 0.04,
    exp_rate = {
      # only the first 4 coordinates differ: the truth of those
      k <- min(4, d)
      ld <- function(rate) function(x) rowSums(stats::dexp(x, rate, log = TRUE))
      set.seed(99)
      summary(prd_truth(ld(1), ld(1.5),
                        function(n) matrix(stats::rexp(n * k), n),
                        function(n) matrix(stats::rexp(n * k, 1.5), n),
                        n = 2e5))$auc
    },
    shift_1 = summary(prd_truth_gaussian(rep(0, d), c(1, rep(0, d - 1))))$auc)
}

rows <- list()
t0 <- proc.time()[["elapsed"]]
for (name in c("boxes", "exp_rate", "shift_1")) {
  for (d in dims) {
    tr <- truth_auc(name, d)
    for (n in sizes) {
      set.seed(n + d)
      z <- scenario(name, n, d)
      set.seed(1)
      cv <- suppressWarnings(prd_curve(z$real, z$generated,
        method = c("marginal", "quadratic", "stacked", "knn", "tightest")))
      set.seed(1)
      old <- suppressWarnings(prd_curve(z$real, z$generated,
        method = "tightest", families = old_default))
      s <- summary(cv)
      auc <- stats::setNames(s$auc, s$method)
      rows[[length(rows) + 1L]] <- data.frame(
        scenario = name, d = d, n = n, truth = round(tr, 3),
        marginal = round(auc[["marginal"]], 3),
        quadratic = round(auc[["quadratic"]], 3),
        stacked = round(auc[["stacked"]], 3), knn = round(auc[["knn"]], 3),
        tightest = round(auc[["tightest"]], 3),
        tightest_without = round(summary(old)$auc, 3),
        bins = prd_curve_info(cv)$details[[1]]$bins)
    }
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("AUC per family (one draw, split 0.5, 10 folds); tightest_without: the default families before marginal; %.0f s\n",
            proc.time()[["elapsed"]] - t0))
print(tab, row.names = FALSE)
