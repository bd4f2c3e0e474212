# Other interval rules for the curves' statistics, on the replicates of the
# validity suite's coverage part (the same draws and half-samples):
#
#   Rscript bench/validity.R --parts coverage --draws 40 --no-manifold \
#     --save-replicates /tmp/reps
#   Rscript bench/interval-rules.R /tmp/reps
#
# For each setting (d, sizes, scenario, family, statistic) over the draws:
# the sd of the estimate, the root mean of the pair variance v, its
# skewness, and the share of draws whose 90% interval contains the
# estimator's own mean (the mean of the estimates) under each rule:
#   package  est +- t_P sqrt(v), clamped to [0, 1], with the Wilson part at
#            the bound (curve_interval(), what summary() gives)
#   logit    the same on the logit scale (values clamped to [0.5/n, 1 - 0.5/n],
#            n the evaluation rows the share counts over; auc: the smaller
#            set), mapped back; the Wilson part at the bound
#   rate_half  the package rule with v times sqrt(2): a variance falling as
#            n^(-1/2)
#   rate0    the package rule with v doubled: a variance that does not fall
#            from n/2 to n
# and var_ratio, Var(theta_n) / Var(theta_n/2) over the draws: 0.5 when the
# variance falls as 1/n, which the half-sample rules assume.
suppressPackageStartupMessages(library(prdcurve))

args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/reps"
files <- list.files(dir, pattern = "\\.rds$", full.names = TRUE)
if (!length(files)) stop("no replicate files in ", dir)
level <- 0.9
stats <- c("auc", "max_precision", "max_recall")

# the rows a statistic is a share of (curve_share_over()); the area: the
# smaller evaluation set
n_of <- function(st, n_eval) {
  over <- prdcurve:::curve_share_over(st)
  if (is.na(over)) min(n_eval) else n_eval[[over]]
}

logit_interval <- function(st, est, vals, ids, divisor, n_eval) {
  n <- n_of(st, n_eval)
  eps <- 0.5 / n
  g <- function(x) stats::qlogis(pmin(pmax(x, eps), 1 - eps))
  ci <- prdcurve:::replicate_interval(g(est), g(vals), ids, divisor, level)
  if (anyNA(ci)) return(ci)
  ci <- stats::plogis(ci)
  ci <- c(lower = min(est, ci[[1]]), upper = max(est, ci[[2]]))
  if (st != "auc" && prdcurve:::at_share_bound(c(est, vals), n)) {
    w <- prdcurve:::wilson_interval(est, n, level)
    ci <- c(lower = min(ci[[1]], w[["lower"]]), upper = max(ci[[2]], w[["upper"]]))
  }
  ci
}

rows <- list()
for (f in files) {
  x <- readRDS(f)
  t <- x$task
  for (p in x$per) {
    for (st in stats) {
      est <- p$estimate[[st]]
      vals <- p$reps[st, ]
      pv <- prdcurve:::pair_variance(vals, p$ids, p$divisor)
      pk <- prdcurve:::curve_interval(st, est, vals, p$ids, p$divisor, level, p$n_eval)
      lg <- logit_interval(st, est, vals, p$ids, p$divisor, p$n_eval)
      r0 <- prdcurve:::curve_interval(st, est, vals, p$ids, p$divisor / 2, level, p$n_eval)
      rh <- prdcurve:::curve_interval(st, est, vals, p$ids, p$divisor / sqrt(2), level, p$n_eval)
      rows[[length(rows) + 1L]] <- data.frame(
        d = t$d, n_real = t$n_real, n_generated = t$n_gen, draw = t$draw,
        scenario = p$model, method = p$method, statistic = st, estimate = est,
        truth = x$truth[[p$model]][[st]], v = pv$v,
        half1 = vals[1], half2 = vals[2], half3 = vals[3], half4 = vals[4],
        package_lo = pk[[1]], package_hi = pk[[2]],
        logit_lo = lg[[1]], logit_hi = lg[[2]],
        rate0_lo = r0[[1]], rate0_hi = r0[[2]],
        rate_half_lo = rh[[1]], rate_half_hi = rh[[2]])
    }
  }
}
res <- do.call(rbind, rows)
key <- interaction(res$d, res$n_real, res$n_generated, res$scenario, res$method,
                   res$statistic, drop = TRUE)
skew <- function(x) if (stats::sd(x) > 0) mean((x - mean(x))^3) / stats::sd(x)^3 else 0
rules <- c("package", "logit", "rate_half", "rate0")
tab <- do.call(rbind, lapply(split(res, key), function(g) {
  m <- mean(g$estimate)
  cov <- vapply(rules, function(r) {
    mean(g[[paste0(r, "_lo")]] <= m + 1e-12 & m <= g[[paste0(r, "_hi")]] + 1e-12)
  }, 0)
  wid <- vapply(rules, function(r) mean(g[[paste0(r, "_hi")]] - g[[paste0(r, "_lo")]]), 0)
  cbind(g[1, c("d", "n_real", "n_generated", "scenario", "method", "statistic")],
        draws = nrow(g), own_mean = m, sd = stats::sd(g$estimate),
        pair_se = sqrt(mean(g$v)), skewness = skew(g$estimate),
        # Var(theta_n) / Var(theta_n/2) over the draws (0.5 at a 1/n rate;
        # Var(theta_n/2) averaged over the first four half-samples)
        var_ratio = stats::var(g$estimate) /
          mean(vapply(paste0("half", 1:4), function(h) stats::var(g[[h]]), 0)),
        as.data.frame(t(setNames(cov, paste0("cov_", rules)))),
        as.data.frame(t(setNames(wid, paste0("width_", rules)))))
}))
rownames(tab) <- NULL
saveRDS(list(draws = res, table = tab), file.path(dir, "rules.rds.out"))

draws <- stats::median(tab$draws)
pairs <- length(readRDS(files[1])$per[[1]]$ids) / 2
cat(sprintf("%d settings, %d draws each (median), %d pairs of halves; 90%% intervals, coverage of the own mean\n\n",
            nrow(tab), draws, pairs))
# What a calibrated interval gives with this many draws: normal estimates,
# a variance estimate chi-square with `pairs` df, the own mean itself the
# mean of the draws (20,000 simulated settings).
set.seed(1)
calibrated <- replicate(20000, {
  th <- stats::rnorm(draws)
  h <- stats::qt((1 + level) / 2, pairs) * sqrt(stats::rchisq(draws, pairs) / pairs)
  mean(abs(th - mean(th)) <= h)
})
cat(sprintf(paste0("A calibrated interval over %d draws: below 85%% in %.1f%% of settings, ",
                   "at most 80%% in %.1f%%, at most 75%% in %.2f%%, above 95%% in %.1f%%\n\n"),
            draws, 100 * mean(calibrated < 0.85), 100 * mean(calibrated <= 0.8),
            100 * mean(calibrated <= 0.75), 100 * mean(calibrated > 0.95)))
cat("Per statistic: settings below 85%, above 95%, pooled coverage, mean width\n\n")
summ <- do.call(rbind, lapply(split(tab, tab$statistic), function(g) {
  do.call(rbind, lapply(rules, function(r) {
    cv <- g[[paste0("cov_", r)]]
    data.frame(statistic = g$statistic[1], rule = r, settings = nrow(g),
               below_85 = sum(cv < 0.85), above_95 = sum(cv > 0.95),
               pooled = round(mean(cv), 3), lowest = round(min(cv), 3),
               width = round(mean(g[[paste0("width_", r)]]), 4))
  }))
}))
print(summ, row.names = FALSE)
cat("\nPer kind of family (neighbour: knn, kde, ipr, coverage; fitted: linear,",
    "quadratic, stacked, tightest) and d, the three statistics together\n\n")
tab$kind <- ifelse(tab$method %in% c("knn", "kde", "ipr", "coverage"), "neighbour", "fitted")
kinds <- do.call(rbind, lapply(split(tab, list(tab$kind, tab$d), drop = TRUE), function(g) {
  do.call(rbind, lapply(rules, function(r) {
    cv <- g[[paste0("cov_", r)]]
    data.frame(kind = g$kind[1], d = g$d[1], rule = r, settings = nrow(g),
               pooled = round(mean(cv), 3),
               below_85 = sprintf("%d (%.1f%%)", sum(cv < 0.85), 100 * mean(cv < 0.85)),
               at_most_75 = sum(cv <= 0.75 + 1e-9),
               above_95 = sprintf("%d (%.1f%%)", sum(cv > 0.95), 100 * mean(cv > 0.95)),
               width = round(mean(g[[paste0("width_", r)]]), 4))
  }))
}))
print(kinds, row.names = FALSE)
cat("\nSettings at most 75% under the package rule\n\n")
low <- tab[tab$cov_package <= 0.75 + 1e-9, ]
low <- low[order(low$cov_package), c("d", "n_real", "n_generated", "scenario", "method",
                                     "statistic", "own_mean", "sd", "pair_se", "skewness",
                                     "var_ratio", "cov_package", "cov_rate_half", "cov_rate0")]
num <- vapply(low, is.double, logical(1))
low[num] <- lapply(low[num], round, 3)
old <- options(width = 200)
print(low, row.names = FALSE)
options(old)
