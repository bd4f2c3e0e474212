# More fit rows for the linear discriminant at high d: K-fold cross-fitting
# against the package's split. The validity suite's anisotropic shifts
# (aniso_1, aniso_2: Mahalanobis 1 and 2, covariance spectrum falling as
# 1/i) at dimension d with n rows per set, for `draws` fresh draws. For each
# draw, the AUC error (estimate - truth) of
#   split   prd_curve(method = "linear") as the package fits it: split 0.5,
#           fit on n/2 rows per set, read on the other n/2;
#   K = k   every row of both sets scored by the discriminant (the same
#           Ledoit-Wolf fit) fitted on the other k - 1 folds, the curve read
#           on all n rows per set from those out-of-fold scores
#   true cov.  the same two rules with the true covariance (only the two
#           means estimated): what a perfect covariance estimate would give
# and the seconds of each (the folds' fits as written here: one covariance
# per fold, no downdating). The known-covariance limit (bench/results.md,
# "A limit no classifier passes") is printed for the fit rows of each rule.
#
# Usage (package root, prdcurve installed; 2,048 x 5,000, 5 draws: 9 min):
#   Rscript bench/crossfit-folds.R [d] [n] [draws] [folds]
#   Rscript bench/crossfit-folds.R 2048 5000 5 2,5,10
suppressPackageStartupMessages(library(prdcurve))
args <- commandArgs(trailingOnly = TRUE)
d <- if (length(args) >= 1) as.integer(args[1]) else 2048L
n <- if (length(args) >= 2) as.integer(args[2]) else 5000L
draws <- if (length(args) >= 3) as.integer(args[3]) else 5L
folds <- if (length(args) >= 4) {
  as.integer(strsplit(args[4], ",")[[1]])
} else {
  c(2L, 5L, 10L)
}
ns <- asNamespace("prdcurve")
lambda <- ns$lambda_grid(1001)

# the true covariance of the anisotropic scenarios (diagonal, variances
# proportional to 1/i, trace d; R/validity.R)
sigma_diag <- d / sum(1 / seq_len(d)) / seq_len(d)

# the linear discriminant fitted on rows fx of X and fy of Y: the package's
# (Ledoit-Wolf), or with the true covariance and the fit rows' means
fit_rule <- function(X, Y, fx, fy, known) {
  if (!known) return(ns$fit_linear(ns$cov_parts(X, Y, fx, fy))$score)
  mx <- colMeans(X[fx, , drop = FALSE])
  my <- colMeans(Y[fy, , drop = FALSE])
  w <- (my - mx) / sigma_diag
  centre <- (mx + my) / 2
  function(Z, rows) drop(sweep(Z[rows, , drop = FALSE], 2, centre) %*% w)
}

# K = 0: the package's split (fit on the first n/2 rows of a random order,
# read on the rest); K >= 2: every row scored out of fold
rule_auc <- function(X, Y, K, known) {
  if (K == 0L) {
    ox <- sample.int(nrow(X))
    oy <- sample.int(nrow(Y))
    hx <- nrow(X) %/% 2
    hy <- nrow(Y) %/% 2
    f <- fit_rule(X, Y, ox[seq_len(hx)], oy[seq_len(hy)], known)
    sx <- f(X, ox[-seq_len(hx)])
    sy <- f(Y, oy[-seq_len(hy)])
  } else {
    fx <- sample(rep_len(seq_len(K), nrow(X)))
    fy <- sample(rep_len(seq_len(K), nrow(Y)))
    sx <- numeric(nrow(X))
    sy <- numeric(nrow(Y))
    for (k in seq_len(K)) {
      f <- fit_rule(X, Y, which(fx != k), which(fy != k), known)
      sx[fx == k] <- f(X, which(fx == k))
      sy[fy == k] <- f(Y, which(fy == k))
    }
  }
  ns$envelope_auc(lambda, ns$curve_from_scores(sx, sy, lambda))
}

# the AUC of the best classifier's true curve with nf fit rows per set
limit_auc <- function(delta, nf) {
  c2 <- delta^2 / (delta^2 + 2 * d / nf)
  summary(prd_truth_gaussian(0, delta * sqrt(c2)))$auc[1]
}

sc <- ns$validity_scenarios(d, seed = 1L, which = c("aniso_1", "aniso_2"))
g <- sc[[which(vapply(sc, `[[`, "", "name") == "aniso")]]
rules <- c("split", paste0("K = ", folds), "true cov., split",
           paste0("true cov., K = ", max(folds)))
rows <- list()
for (draw in seq_len(draws)) {
  set.seed(draw)
  X <- g$real(n)
  for (m in names(g$models)) {
    Y <- g$models[[m]]$sample(n)
    truth <- g$models[[m]]$truth_auc
    t0 <- proc.time()[["elapsed"]]
    fit <- prd_curve(X, Y, method = "linear")
    err <- summary(fit)$auc[1] - truth
    sec <- proc.time()[["elapsed"]] - t0
    runs <- rbind(cbind(folds, FALSE), c(0L, TRUE), c(max(folds), TRUE))
    for (i in seq_len(nrow(runs))) {
      t0 <- proc.time()[["elapsed"]]
      err <- c(err, rule_auc(X, Y, runs[i, 1], runs[i, 2] == 1) - truth)
      sec <- c(sec, proc.time()[["elapsed"]] - t0)
    }
    rows[[length(rows) + 1L]] <- data.frame(draw = draw, model = m,
                                            rule = rules, error = err,
                                            seconds = sec)
    cat(sprintf("draw %d %s: %s\n", draw, m,
                paste(sprintf("%s %+.3f", rules, err), collapse = ", ")))
  }
}
res <- do.call(rbind, rows)

cat(sprintf("\nd = %d, n = %d per set, %d draws: AUC error of the linear ",
            d, n, draws), "discriminant (mean, range, draws above 0.15)\n\n",
    sep = "")
nf <- c(n / 2, n * (folds - 1) / folds, n / 2,
        n * (max(folds) - 1) / max(folds))
cat("| model | rule | fit rows per set | limit | mean | range | above 0.15 | seconds |\n")
cat("|---|---|---:|---:|---:|---|---:|---:|\n")
for (m in names(g$models)) {
  delta <- as.numeric(sub("aniso_", "", m))
  truth <- g$models[[m]]$truth_auc
  for (i in seq_along(rules)) {
    e <- res$error[res$model == m & res$rule == rules[i]]
    s <- res$seconds[res$model == m & res$rule == rules[i]]
    cat(sprintf("| %s | %s | %s | %+.3f | %+.3f | %+.3f to %+.3f | %d of %d | %.1f |\n",
                m, rules[i], format(nf[i], big.mark = ","),
                limit_auc(delta, nf[i]) - truth, mean(e), min(e), max(e),
                sum(e > 0.15), length(e), stats::median(s)))
  }
}
