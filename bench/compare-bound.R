# The intervals of prd_compare() for shares of manifold_metrics() at their
# bound: the half-sample interval alone, the rule of prd_compare() (the
# hull with Newcombe's interval where a share of either model sits at 0 or
# 1 in its estimate or in some half), and the hull everywhere, on the same
# draws. Coverage = share of draws whose 90% interval of the difference
# holds the mean difference over the draws (the estimator's own target);
# width = mean upper - lower.
#
# Usage (from the package root, with prdcurve installed):
#   Rscript bench/compare-bound.R bound    # d = 64, 500 rows, 40 draws (about 0.5 min)
#   Rscript bench/compare-bound.R interior # d = 16, 1,000 rows, 100 draws (about 1.5 min)
#
# Settings (fresh data in every draw, k = 5, 20 replicates = 10 pairs):
#   bound: real N(0, I), models b = N(0, 1.3^2 I) (the baseline),
#     a = N(0, 1.2^2 I), c = N(0, 1.5^2 I), d = 64: the recall of b and c
#     is 1 in (nearly) every draw and half, a's is about 0.994;
#   interior: real N(0, I), models a = N(0, I) (the baseline) and
#     b = N(0.3 e_1, I), d = 16: every share between 0.8 and 0.97.
suppressPackageStartupMessages(library(prdcurve))

setting <- commandArgs(TRUE)[1]
if (is.na(setting) || !setting %in% c("bound", "interior")) {
  stop("usage: Rscript bench/compare-bound.R bound|interior")
}
level <- 0.9
metrics <- c("precision", "recall", "density", "coverage")

rows_of <- function(mm, baseline) {
  cmp <- prd_compare(mm, baseline = baseline, conf_level = level)
  reps <- attr(mm, "replicates")
  sizes <- attr(mm, "eval_sizes")
  do.call(rbind, lapply(seq_len(nrow(cmp)), function(i) {
    st <- cmp$statistic[i]
    m <- cmp$model[i]
    rm <- reps[reps$model == m & reps$metric == st, ]
    rb <- reps[reps$model == baseline & reps$metric == st, ]
    rb <- rb[match(rm$replicate, rb$replicate), ]
    alone <- prdcurve:::replicate_interval(cmp$estimate[i], rm$value - rb$value,
                                           rm$replicate, attr(mm, "divisor"),
                                           level)
    over <- prdcurve:::manifold_over(st)
    p1 <- mm$value[mm$model == m & mm$metric == st]
    p2 <- mm$value[mm$model == baseline & mm$metric == st]
    nc <- if (is.na(over)) alone else {
      col <- paste0("eval_", over)
      prdcurve:::newcombe_interval(p1, sizes[m, col], p2, sizes[baseline, col],
                                   level)
    }
    data.frame(pair = paste(m, "-", baseline), statistic = st,
               estimate = cmp$estimate[i], p1 = p1, p2 = p2,
               alone_lo = alone[["lower"]], alone_hi = alone[["upper"]],
               rule_lo = cmp$lower[i], rule_hi = cmp$upper[i],
               always_lo = min(alone[["lower"]], nc[["lower"]]),
               always_hi = max(alone[["upper"]], nc[["upper"]]))
  }))
}

draw <- function(i) {
  if (setting == "bound") {
    set.seed(10000 + i)
    d <- 64
    n <- 500
    real <- matrix(rnorm(n * d), n)
    gens <- list(b = matrix(rnorm(n * d, sd = 1.3), n),
                 a = matrix(rnorm(n * d, sd = 1.2), n),
                 c = matrix(rnorm(n * d, sd = 1.5), n))
    baseline <- "b"
  } else {
    set.seed(20000 + i)
    d <- 16
    n <- 1000
    real <- matrix(rnorm(n * d), n)
    gens <- list(a = matrix(rnorm(n * d), n),
                 b = sweep(matrix(rnorm(n * d), n), 2,
                           c(0.3, rep(0, d - 1)), "+"))
    baseline <- "a"
  }
  mm <- manifold_metrics(real, gens, metrics = metrics, k = 5,
                         replicates = 20)
  rows_of(mm, baseline)
}

draws <- if (setting == "bound") 40 else 100
res <- do.call(rbind, lapply(seq_len(draws), draw))
key <- paste(res$pair, res$statistic)
target <- ave(res$estimate, key)
by_key <- function(v, f = mean) tapply(v, key, f)
covers <- function(lo, hi) by_key(lo <= target & target <= hi)
width <- function(lo, hi) by_key(hi - lo)
pct <- function(x) sprintf("%.1f%%", 100 * x)
tab <- data.frame(
  key = names(by_key(res$estimate)),
  mean = sprintf("%.5f", by_key(res$estimate)),
  at_bound = ifelse(is.na(vapply(by_key(res$statistic, function(x) x[1]), prdcurve:::manifold_over,
                                  character(1))), "-",
                    pct(by_key(res$p1 %in% c(0, 1) | res$p2 %in% c(0, 1)))),
  moved = pct(by_key(res$alone_lo != res$rule_lo | res$alone_hi != res$rule_hi)),
  alone = sprintf("%s (%.4f)", pct(covers(res$alone_lo, res$alone_hi)),
                  width(res$alone_lo, res$alone_hi)),
  rule = sprintf("%s (%.4f)", pct(covers(res$rule_lo, res$rule_hi)),
                 width(res$rule_lo, res$rule_hi)),
  always = sprintf("%s (%.4f)", pct(covers(res$always_lo, res$always_hi)),
                   width(res$always_lo, res$always_hi)),
  row.names = NULL)
cat(sprintf("%s: %d draws, 90%% intervals of the differences; coverage (mean width)\n\n",
            setting, draws))
cat("| difference | mean | a share at 0 or 1 | interval moved | half-sample alone | prd_compare() | hull everywhere |\n")
cat("|---|---:|---:|---:|---:|---:|---:|\n")
cat(sprintf("| %s | %s | %s | %s | %s | %s | %s |\n", tab$key, tab$mean,
            tab$at_bound, tab$moved, tab$alone, tab$rule, tab$always), sep = "")
