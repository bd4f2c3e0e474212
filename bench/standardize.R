# Which rows should set the scale of standardize = "real"? Two samples of
# one law (uniform on the unit sphere surface in d = 128, 1,000 points per
# set, the sanity checks' "Hypersphere surface" at Q = P), 20 draws, the
# fitted families and the default "tightest" with the package's defaults.
# The true AUC is 1. Three readings of the same draws:
#   every real row: the columns scaled by the mean and sd of all real rows
#                   (standardize = "real" of prdcurve 0.5.8 and earlier);
#   fit rows:       standardize = "real" (the real fit rows of the split);
#   unscaled:       the data as drawn.
#
# With --replicates: the half-samples of the intervals (R = 10 replicates,
# 500 points per set and half) on the same draws with standardize =
# "real". Each half is scaled by its own real fit rows, as an estimate on
# 500 points per set is (until commit e0ac9c6 every half reused the full
# sample's scale, set by real rows that the half may evaluate). Printed:
# the mean over draws of the halves' AUC, of a direct estimate on 500
# fresh points per set (what the halves should replicate), the pair
# variance's sd estimate, and the sd of the full estimate over the draws
# (what that estimate should match).
#
# With --cost: the time and the growth of the peak memory (VmHWM) of the
# scaling itself, standardize_sets() on two sets of 20,000 x 2,048 (the
# real fit rows: the first 10,000), in this fresh process.
#
# With --metrics: the same draws, manifold_metrics() with split 0.5
# (precision, recall, density, coverage; k = 5; P = Q, so density's
# expectation is about 1 and the shares' near 1) and entropy_metrics()
# with split 0.5 (expectations near 0), scaled by every real row (what
# standardize = "real" does in the metrics functions), by the real fit
# rows of the split (prd_curve()'s rule), and unscaled; the mean over
# draws, and the mean paired difference fit rows - every real row with
# its standard error.
# Usage: Rscript bench/standardize.R [DRAWS = 20] [--replicates | --cost | --metrics]
args <- commandArgs(trailingOnly = TRUE)
if ("--cost" %in% args) {
  suppressPackageStartupMessages(library(prdcurve))
  set.seed(1)
  n <- 20000L
  d <- 2048L
  x <- matrix(stats::rnorm(n * d), n)
  y <- matrix(stats::rnorm(n * d), n)
  hwm <- function() {
    st <- readLines("/proc/self/status")
    as.numeric(gsub("[^0-9]", "", grep("^VmHWM", st, value = TRUE))) / 1024
  }
  h0 <- hwm()
  el <- system.time(prdcurve:::standardize_sets(
    list(real = x, generated = list(g = y)), rows = seq_len(n / 2)))[["elapsed"]]
  cat(sprintf("standardize_sets(), two sets of %d x %d (%.0f MiB): %.2f s, peak memory +%.0f MiB (prdcurve %s)\n",
              n, d, 2 * n * d * 8 / 2^20, el, hwm() - h0,
              utils::packageVersion("prdcurve")))
  quit(save = "no")
}
halves <- "--replicates" %in% args
metrics <- "--metrics" %in% args
args <- setdiff(args, c("--replicates", "--metrics"))
draws <- if (length(args)) as.integer(args[1]) else 20L
suppressPackageStartupMessages(library(prdcurve))
rsphere <- function(n, d) {
  z <- matrix(stats::rnorm(n * d), n)
  z / sqrt(rowSums(z^2))
}
if (metrics) {
  one_metric <- function(i) {
    set.seed(100 + i)
    r <- rsphere(1000, 128)
    g <- rsphere(1000, 128)
    scaled <- function(rows) {
      mu <- colMeans(r[rows, ])
      s <- apply(r[rows, ], 2, stats::sd)
      list(scale(r, mu, s), scale(g, mu, s))
    }
    # the split the calls draw (seeded), for the fit rows' scale
    set.seed(i)
    sp <- prdcurve:::resolve_model_splits(0.5, r, list(generated = g))
    fit <- sp[[1]]$fit[[1]]
    sets <- list("every real row" = scaled(seq_len(nrow(r))),
                 "fit rows" = scaled(fit), unscaled = list(r, g))
    do.call(rbind, lapply(names(sets), function(h) {
      x <- sets[[h]]
      set.seed(i)
      m <- manifold_metrics(x[[1]], x[[2]], split = 0.5,
                            metrics = c("precision", "recall", "density",
                                        "coverage"))
      set.seed(i)
      e <- entropy_metrics(x[[1]], x[[2]], split = 0.5)
      data.frame(draw = i, scale = h, metric = c(m$metric, e$metric),
                 value = c(m$value, e$value))
    }))
  }
  res <- do.call(rbind, lapply(seq_len(draws), one_metric))
  w <- stats::reshape(res, idvar = c("draw", "metric"), timevar = "scale",
                      direction = "wide")
  names(w) <- sub("^value\\.", "", names(w))
  dif <- w[["fit rows"]] - w[["every real row"]]
  tab <- do.call(rbind, lapply(unique(w$metric), function(mt) {
    k <- w$metric == mt
    data.frame(metric = mt,
               every_real_row = round(mean(w[["every real row"]][k]), 4),
               fit_rows = round(mean(w[["fit rows"]][k]), 4),
               unscaled = round(mean(w$unscaled[k]), 4),
               fit_minus_every = round(mean(dif[k]), 4),
               se = round(stats::sd(dif[k]) / sqrt(sum(k)), 4))
  }))
  cat(sprintf("Q = P uniform on the sphere surface, d = 128, 1,000 points per set, split 0.5, %d draws (prdcurve %s)\n",
              draws, utils::packageVersion("prdcurve")))
  print(tab, right = FALSE, row.names = FALSE)
  quit(save = "no")
}
methods <- c("linear", "quadratic", "stacked", "tightest")
one <- function(i, how) {
  set.seed(100 + i)
  r <- rsphere(1000, 128)
  g <- rsphere(1000, 128)
  if (how == "every real row") {
    mu <- colMeans(r)
    s <- apply(r, 2, stats::sd)
    r <- scale(r, mu, s)
    g <- scale(g, mu, s)
  }
  set.seed(i)
  cv <- suppressWarnings(prd_curve(r, g, method = methods,
                                   standardize = if (how == "fit rows") "real" else "none"))
  s <- summary(cv)
  stats::setNames(s$auc, s$method)[methods]
}
if (halves) {
  half_one <- function(i) {
    set.seed(100 + i)
    r <- rsphere(1000, 128)
    g <- rsphere(1000, 128)
    set.seed(i)
    cv <- suppressWarnings(prd_curve(r, g, method = methods,
                                     standardize = "real", replicates = 10))
    info <- attr(cv, "curves")
    rep_auc <- vapply(methods, function(m) {
      reps <- info$replicates[[which(info$method == m)]]
      a <- vapply(split(reps, reps$replicate), function(x) {
        prdcurve:::curve_auc(x$lambda, x$precision, x$recall)
      }, numeric(1))
      # the package's pair variance: mean squared difference / 4
      c(half = mean(a), pair_sd = sqrt(mean((a[c(TRUE, FALSE)] -
                                               a[c(FALSE, TRUE)])^2) / 4))
    }, numeric(2))
    set.seed(1000 + i)
    r2 <- rsphere(500, 128)
    g2 <- rsphere(500, 128)
    s2 <- summary(suppressWarnings(prd_curve(r2, g2, method = methods,
                                             standardize = "real")))
    s <- summary(cv)
    rbind(rep_auc, direct = stats::setNames(s2$auc, s2$method)[methods],
          full = stats::setNames(s$auc, s$method)[methods])
  }
  res <- lapply(seq_len(draws), half_one)
  m <- Reduce(`+`, res) / draws
  full_sd <- apply(vapply(res, function(x) x["full", ], numeric(4)), 1, stats::sd)
  cat(sprintf("Q = P uniform on the sphere surface, d = 128, 1,000 points per set, R = 10, %d draws (prdcurve %s)\n",
              draws, utils::packageVersion("prdcurve")))
  print(data.frame(method = methods,
                   halves_mean_auc = round(m["half", ], 3),
                   direct_500_mean_auc = round(m["direct", ], 3),
                   full_mean_auc = round(m["full", ], 3),
                   pair_sd_estimate = round(m["pair_sd", ], 4),
                   full_sd_over_draws = round(full_sd, 4), row.names = NULL),
        right = FALSE)
  quit(save = "no")
}
hows <- c("every real row", "fit rows", "unscaled")
res <- lapply(hows, function(h) t(vapply(seq_len(draws), one, numeric(4), how = h)))
tab <- do.call(rbind, lapply(seq_along(hows), function(j) {
  m <- res[[j]]
  data.frame(scale = hows[j], method = methods,
             mean_auc = round(colMeans(m), 3),
             sd = round(apply(m, 2, stats::sd), 3), row.names = NULL)
}))
cat(sprintf("Q = P uniform on the sphere surface, d = 128, 1,000 points per set, %d draws (true AUC 1)\n", draws))
print(tab, right = FALSE)
