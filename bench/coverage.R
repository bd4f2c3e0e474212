# Calibration of the half-sample intervals (delete-d jackknife, d = n / 2)
# of prd_curve(), manifold_metrics() and prd_compare().
#
# Usage (from the package root, with prdcurve installed):
#   Rscript bench/coverage.R                         # 200 draws, R = 50, 2 processes
#   Rscript bench/coverage.R --draws 5               # a quick run
#   Rscript bench/coverage.R --write                 # also write bench/results.md
#   Rscript bench/coverage.R --save /tmp/cov.rds     # keep every draw (replicate values too)
#   Rscript bench/coverage.R --report /tmp/cov.rds   # tables from a saved run, no new draws
# Options: --draws N (or env COVERAGE_DRAWS), --replicates R (or env
# COVERAGE_REPLICATES), --cores 1|2 (forked processes, one thread each),
# --parts abcd (a subset of the four settings).
#
# Settings (d = 16, 1,000 rows per set, fresh data in every draw):
#   (a) real N(0, I), generated N(e_1, I) (mean moved by 1 along axis 1);
#   (b) real = equal mixture of 4 modes N(mu_l 1_d, I), mu = 0, 3, 6, 9
#       (centres 12 apart); generated = the same mixture without mode 9;
#   (c) two models from the same distribution N(e_1, I), one real set;
#   (d) models N(e_1, I) and N(1.5 e_1, I), one real set.
# (a), (b): 90% intervals of auc, max_precision, max_recall of
# prd_curve(method = c("knn", "coverage")) (split 0.5, default k) from
# summary(conf_level = 0.9), and of manifold_metrics(k = 5) precision,
# recall, density, coverage (no split). Coverage = share of draws whose
# interval contains the mean of the point estimates over all draws (the
# estimator's own target at this sample size). (c), (d): the 90% interval of
# the difference (model 2 - model 1) from prd_compare(); (c) reports how often
# it contains 0 (the true difference), (d) how often it excludes 0.
# Draw i of setting s uses set.seed(seed_of(s, i)), so any draw reproduces
# alone: one_draw("a", 17, R).

suppressPackageStartupMessages(library(prdcurve))

args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  i <- match(paste0("--", name), args)
  if (is.na(i)) default else args[i + 1L]
}
flag <- function(name) paste0("--", name) %in% args

n_draws <- as.integer(opt("draws", Sys.getenv("COVERAGE_DRAWS", "200")))
n_reps <- as.integer(opt("replicates", Sys.getenv("COVERAGE_REPLICATES", "50")))
cores <- as.integer(opt("cores", "2"))
parts <- strsplit(opt("parts", "abcd"), "")[[1]]
save_to <- opt("save", "")
report_from <- opt("report", "")
conf_level <- 0.9
n <- 1000L
d <- 16L

seed_of <- function(setting, i) 1000L * match(setting, letters) + i

curve_stats <- c("auc", "max_precision", "max_recall")
manifold_stats <- c("precision", "recall", "density", "coverage")

simulate <- function(setting) {
  real_gauss <- function() matrix(stats::rnorm(n * d), n, d)
  shifted <- function(s) {
    g <- matrix(stats::rnorm(n * d), n, d)
    g[, 1] <- g[, 1] + s
    g
  }
  switch(setting,
    a = list(real = real_gauss(), generated = shifted(1)),
    b = {
      sim <- sim_gaussian_mixtures(n = n, d = d, means = c(0, 3, 6, 9),
                                   weights_real = rep(1, 4),
                                   weights_generated = c(1, 1, 1, 0))
      list(real = sim$real, generated = sim$generated)
    },
    c = list(real = real_gauss(),
             generated = list(model_1 = shifted(1), model_2 = shifted(1))),
    d = list(real = real_gauss(),
             generated = list(model_1 = shifted(1), model_2 = shifted(1.5)))
  )
}

# Replicate values of every statistic, long (model, method, statistic,
# replicate, value); internal helper of prd_compare().
replicate_values <- function(x) {
  rs <- prdcurve:::replicate_statistics(x)$replicates
  rs$method[is.na(rs$method)] <- "manifold"
  rs
}

# One draw: a tibble with one row per (method, statistic) and the
# replicate values as a list column, so other interval rules can be tried
# on a saved run without new draws.
one_draw <- function(setting, i, R = n_reps) {
  set.seed(seed_of(setting, i))
  dat <- simulate(setting)
  t0 <- proc.time()[["elapsed"]]
  cv <- prd_curve(dat$real, dat$generated, method = c("knn", "coverage"),
                  replicates = R)
  mm <- manifold_metrics(dat$real, dat$generated, metrics = manifold_stats,
                         k = 5, replicates = R)
  reps <- rbind(replicate_values(cv), replicate_values(mm))
  reps <- reps[reps$statistic %in% c(curve_stats, manifold_stats), ]
  reps <- reps[!(reps$method != "manifold" & !reps$statistic %in% curve_stats) &
               !(reps$method == "manifold" & !reps$statistic %in% manifold_stats), ]
  key <- function(df) paste(df$model, df$method, df$statistic)
  if (setting %in% c("a", "b")) {
    s <- summary(cv, conf_level = conf_level)
    rows <- rbind(
      do.call(rbind, lapply(curve_stats, function(st) data.frame(
        model = s$model, method = s$method, statistic = st,
        estimate = s[[st]], lower = s[[paste0(st, "_lower")]],
        upper = s[[paste0(st, "_upper")]]))),
      data.frame(model = mm$model, method = "manifold", statistic = mm$metric,
                 estimate = mm$value, lower = mm$lower, upper = mm$upper)
    )
  } else {
    cc <- prd_compare(cv, baseline = "model_1", conf_level = conf_level)
    cm <- prd_compare(mm, baseline = "model_1", conf_level = conf_level)
    cc <- cc[cc$statistic %in% curve_stats, ]
    rows <- rbind(
      data.frame(model = cc$model, method = cc$method, statistic = cc$statistic,
                 estimate = cc$estimate, lower = cc$lower, upper = cc$upper),
      data.frame(model = cm$model, method = "manifold",
                 statistic = cm$statistic, estimate = cm$estimate,
                 lower = cm$lower, upper = cm$upper)
    )
    # replicate differences model_2 - model_1 (paired by replicate)
    r1 <- reps[reps$model == "model_1", ]
    r2 <- reps[reps$model == "model_2", ]
    r1 <- r1[match(paste(r2$method, r2$statistic, r2$replicate),
                   paste(r1$method, r1$statistic, r1$replicate)), ]
    reps <- r2
    reps$value <- r2$value - r1$value
  }
  rows$setting <- setting
  rows$draw <- i
  rows$seconds <- proc.time()[["elapsed"]] - t0
  rows$values <- lapply(key(rows), function(k) reps$value[key(reps) == k])
  rows
}

run_setting <- function(setting, draws = n_draws, R = n_reps) {
  prd_threads(1)
  t0 <- proc.time()[["elapsed"]]
  out <- vector("list", draws)
  for (i in seq_len(draws)) {
    out[[i]] <- one_draw(setting, i, R)
    el <- proc.time()[["elapsed"]] - t0
    message(sprintf("[%s] draw %d/%d, %.0f s elapsed, about %.0f s left",
                    setting, i, draws, el, el / i * (draws - i)))
  }
  res <- do.call(rbind, out)
  attr(res, "wall") <- proc.time()[["elapsed"]] - t0
  res
}

# ---- intervals and tables ---------------------------------------------------

# The package's rule, recomputed from replicate values (f = 1/2): a check
# that the saved values reproduce the reported intervals, and the base of
# the variants tried in bench/results.md.
jackknife_interval <- function(estimate, values, level = conf_level,
                               factor = 1, lo = 0, hi = 1) {
  se <- sqrt(factor * stats::var(values))
  z <- stats::qnorm((1 + level) / 2)
  cbind(lower = pmax(lo, estimate - z * se), upper = pmin(hi, estimate + z * se))
}

label_of <- function(method, statistic) {
  ifelse(method == "manifold", paste0("manifold_metrics ", statistic),
         paste0(method, " ", statistic))
}

calibration_table <- function(res) {
  res <- res[res$setting %in% c("a", "b"), ]
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    target <- mean(g$estimate)
    se_jk <- vapply(g$values, stats::sd, numeric(1))
    hit <- g$lower <= target & target <= g$upper
    p <- mean(hit, na.rm = TRUE)
    m <- sum(!is.na(hit))
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1], draws = m,
               target = target, sd_draws = stats::sd(g$estimate),
               se_halves = sqrt(mean(se_jk^2)),
               at_one = mean(g$estimate >= 1),
               coverage = p, coverage_se = sqrt(p * (1 - p) / m),
               width = mean(g$upper - g$lower, na.rm = TRUE))
  }))
  tab[order(tab$setting, match(tab$method, c("knn", "coverage", "manifold")),
            match(tab$statistic, c(curve_stats, manifold_stats))), ]
}

comparison_table <- function(res) {
  res <- res[res$setting %in% c("c", "d"), ]
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    contains <- g$lower <= 0 & 0 <= g$upper
    p <- if (g$setting[1] == "c") mean(contains) else mean(!contains)
    m <- nrow(g)
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1], draws = m,
               mean_difference = mean(g$estimate),
               sd_draws = stats::sd(g$estimate),
               se_halves = sqrt(mean(vapply(g$values, stats::var, numeric(1)))),
               rate = p, rate_se = sqrt(p * (1 - p) / m),
               width = mean(g$upper - g$lower))
  }))
  tab[order(tab$setting, match(tab$method, c("knn", "coverage", "manifold")),
            match(tab$statistic, c(curve_stats, manifold_stats))), ]
}

fmt <- function(x, digits = 3) formatC(x, format = "f", digits = digits)
pct <- function(p, se) paste0(fmt(100 * p, 1), " ± ", fmt(100 * se, 1))

setting_names <- c(
  a = "(a) N(0, I) vs N(e_1, I)",
  b = "(b) 4-mode mixture vs 3 modes",
  c = "(c) two models, same distribution: contains 0",
  d = "(d) models 0.5 apart: excludes 0"
)

md_calibration <- function(tab) {
  c("| setting | statistic | target | sd over draws | half-sample se | share at 1 | coverage % (± se) | mean width |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |",
            substr(setting_names[tab$setting], 1, 3),
            label_of(tab$method, tab$statistic), fmt(tab$target),
            fmt(tab$sd_draws, 4), fmt(tab$se_halves, 4),
            ifelse(tab$statistic %in% c("max_precision", "max_recall",
                                        "precision", "recall", "coverage"),
                   fmt(tab$at_one, 2), ""),
            pct(tab$coverage, tab$coverage_se), fmt(tab$width)))
}

md_comparison <- function(tab) {
  c("| setting | statistic (model 2 - model 1) | mean difference | sd over draws | half-sample se | rate % (± se) | mean width |",
    "|---|---|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s | %s | %s |",
            setting_names[tab$setting], label_of(tab$method, tab$statistic),
            fmt(tab$mean_difference, 4), fmt(tab$sd_draws, 4),
            fmt(tab$se_halves, 4), pct(tab$rate, tab$rate_se),
            fmt(tab$width)))
}

band <- function(m, p = conf_level) {
  h <- 2 * sqrt(p * (1 - p) / m)
  sprintf("%.1f%%-%.1f%%", 100 * (p - h), 100 * (p + h))
}

write_results <- function(res, path = "bench/results.md") {
  ct <- calibration_table(res)
  pt <- comparison_table(res)
  wall <- attr(res, "wall")
  m <- max(c(ct$draws, pt$draws))
  sec <- c(
    "## Interval calibration",
    "",
    paste0("`Rscript bench/coverage.R --draws ", m, " --replicates ",
           attr(res, "replicates"), " --write`. ", R.version.string,
           "; prdcurve ", utils::packageVersion("prdcurve"),
           if (length(attr(res, "commit")) && !is.na(attr(res, "commit")[1]))
             paste0(" (main at ", attr(res, "commit")[1], ")"),
           "; run on ",
           format(Sys.Date()), ", ", attr(res, "cores"), " processes of one ",
           "thread each, ", fmt(wall / 60, 1), " minutes of wall time."),
    "",
    paste0("Every draw is fresh data: d = ", d, ", n = ", format(n, big.mark = ","),
           " rows per set (real and each generated set), ", m, " draws per ",
           "setting, R = ", attr(res, "replicates"), " half-sample replicates, ",
           "90% intervals (`summary(conf_level = 0.9)`, the `lower`/`upper` ",
           "columns of `manifold_metrics()`, `prd_compare()`). Settings: (a) real ",
           "N(0, I), generated N(e_1, I); (b) real = equal mixture of the four ",
           "modes N(mu 1_d, I), mu = 0, 3, 6, 9, generated = the same mixture ",
           "without mu = 9; (c) two generated sets from N(e_1, I) and one real ",
           "set; (d) generated N(e_1, I) and N(1.5 e_1, I). Curves: ",
           "`prd_curve(method = c(\"knn\", \"coverage\"))`, split 0.5, default k ",
           "(22); metrics: `manifold_metrics(k = 5)`, no split."),
    "",
    paste0("`target` is the mean of the point estimates over the draws (the ",
           "estimator's own expectation at this n, not the population value); ",
           "`coverage` the share of draws whose interval contains it, with its ",
           "binomial standard error; `sd over draws` the actual standard ",
           "deviation of the estimate, `half-sample se` the root mean of the ",
           "variance the half-samples estimate (equal in a calibrated method); ",
           "`share at 1` the share of draws whose estimate is exactly 1. With ",
           m, " draws, a calibrated 90% interval lies in ", band(m),
           " (± 2 binomial se) in about 95% of the rows."),
    "",
    md_calibration(ct),
    "",
    paste0("Paired comparison, 90% interval of model 2 - model 1 from ",
           "`prd_compare()`. In (c) the true difference is 0 and `rate` is the ",
           "share of intervals that contain 0 (target 85-95%); in (d) `rate` is ",
           "the share that exclude 0 (target at least 90% for auc)."),
    "",
    md_comparison(pt),
    ""
  )
  old <- if (file.exists(path)) readLines(path) else character()
  start <- grep("^## Interval calibration", old)
  if (length(start)) {
    nxt <- grep("^## ", old)
    nxt <- nxt[nxt > start[1]]
    end <- if (length(nxt)) nxt[1] - 1L else length(old)
    new <- c(old[seq_len(start[1] - 1L)], sec,
             if (end < length(old)) old[(end + 1L):length(old)])
  } else {
    new <- c(old, if (length(old) && nzchar(old[length(old)])) "", sec)
  }
  writeLines(new, path)
  invisible(path)
}

# ---- main -------------------------------------------------------------------

if (!interactive() && sys.nframe() == 0L) {
  if (nzchar(report_from)) {
    res <- readRDS(report_from)
  } else {
    t0 <- proc.time()[["elapsed"]]
    # (a, c) in one process, (b, d) in the other (prescheduled round robin)
    runs <- parallel::mclapply(parts, run_setting, mc.cores = cores)
    bad <- vapply(runs, inherits, logical(1), "try-error")
    if (any(bad)) stop("a setting failed: ", runs[bad][[1]])
    res <- do.call(rbind, runs)
    attr(res, "wall") <- proc.time()[["elapsed"]] - t0
    attr(res, "replicates") <- n_reps
    attr(res, "cores") <- min(cores, length(parts))
    attr(res, "commit") <- tryCatch(
      system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE,
              stderr = FALSE), error = function(e) NA_character_, warning = function(w) NA_character_)
    if (nzchar(save_to)) saveRDS(res, save_to)
  }
  ct <- calibration_table(res)
  pt <- comparison_table(res)
  old <- options(width = 200)
  if (nrow(ct)) {
    cat("\nCalibration of 90% intervals (coverage of the mean estimate)\n")
    print(transform(ct, target = round(target, 4), sd_draws = round(sd_draws, 4),
                    se_halves = round(se_halves, 4),
                    coverage = round(coverage, 3),
                    coverage_se = round(coverage_se, 3), width = round(width, 4)),
          row.names = FALSE)
  }
  if (nrow(pt)) {
    cat("\nPaired comparison: (c) share containing 0, (d) share excluding 0\n")
    print(transform(pt, mean_difference = round(mean_difference, 4),
                    sd_draws = round(sd_draws, 4), se_halves = round(se_halves, 4),
                    rate = round(rate, 3), rate_se = round(rate_se, 3),
                    width = round(width, 4)),
          row.names = FALSE)
  }
  options(old)
  cat(sprintf("\nWall time %.1f minutes\n", attr(res, "wall") / 60))
  if (flag("write")) {
    write_results(res)
    cat("Wrote bench/results.md\n")
  }
}
