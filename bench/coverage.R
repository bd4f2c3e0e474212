# Calibration of the complementary half-sample intervals (random groups
# with two groups, Wolter 2007, ch. 2) of prd_curve(), manifold_metrics()
# and prd_compare(), and the coverage of other interval rules on the same
# replicates.
#
# Usage (from the package root, with prdcurve installed):
#   Rscript bench/coverage.R --draws 5                # a quick run (200 by default)
#   Rscript bench/coverage.R --save /tmp/cov.rds      # keep every draw, replicate values too
#   Rscript bench/coverage.R --report /tmp/cov.rds --write
#                                                     # tables from saved runs; --write puts
#                                                     # them into bench/results.md
# Options: --draws N (or env COVERAGE_DRAWS; default 200), --replicates R
# (or env COVERAGE_REPLICATES; default 40 = 20 pairs), --cores 1|2 (forked processes,
# one thread each; default 2: settings a, c in one and b, d in the other),
# --parts (default abcd), --rows N (rows per set, default 1,000; below
# 1,000 prd_curve() averages 5 splits by default), --repeats S (the
# splits averaged, `repeats` of prd_curve()), --methods M1,M2 (the
# curves' methods, default knn,coverage), --csv FILE (the
# calibration table as CSV),
# env COVERAGE_COMMIT (the commit measured, for the report), env
# COVERAGE_NOTE (a sentence added to the report's first paragraph).
#
# Settings (d = 16, 1,000 rows per set or --rows, fresh data in every draw):
#   (a) real N(0, I), generated N(e_1, I) (mean moved by 1 along axis 1);
#   (b) real = equal mixture of 4 modes N(mu_l 1_d, I), mu = 0, 3, 6, 9
#       (centres 12 apart); generated = the same mixture without mode 9;
#   (c) two models from the same distribution N(e_1, I), one real set;
#   (d) models N(e_1, I) and N(1.5 e_1, I), one real set;
#   (e) (not in the default --parts) the validity suite's 16 overlapping
#       classes of unequal spreads at d = 256 (R/validity-kinds.R, kind
#       clusters), the model that drops three (clusters_drop): clustered
#       rows, where the default takes the mixture family from 1,000 rows a
#       set (--rows 2000: the clusters test's gain is near 0 at 1,000) and
#       every half-sample repeats its choice among 1 to 16 components and
#       two forms.
# (a), (b), (e): 90% intervals of auc, max_precision, max_recall of
# prd_curve(method = c("knn", "coverage")) (split 0.5, default k) from
# summary(conf_level = 0.9), and of manifold_metrics(k = 5) precision,
# recall, density, coverage (no split). Coverage = share of draws whose
# interval contains the mean of the point estimates over all draws (the
# estimator's own target at this sample size). (c), (d): the 90% interval of
# the difference (model 2 - model 1) from prd_compare(); (c) reports how often
# it contains 0 (the true difference), (d) how often it excludes 0.
# Draw i of setting s uses set.seed(seed_of(s, i)), so any draw reproduces
# alone: source("bench/coverage.R"); one_draw("a", 17, 40).

suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")

args <- commandArgs(trailingOnly = TRUE)

n_draws <- as.integer(opt("draws", Sys.getenv("COVERAGE_DRAWS", "200")))
n_reps <- as.integer(opt("replicates", Sys.getenv("COVERAGE_REPLICATES", "40")))
cores <- as.integer(opt("cores", "2"))
parts <- strsplit(opt("parts", "abcd"), "")[[1]]
save_to <- opt("save", "")
report_from <- opt("report", "")
conf_level <- 0.9
n <- as.integer(opt("rows", "1000"))
# the curves' methods (--methods, default knn,coverage)
curve_methods <- strsplit(opt("methods", "knn,coverage"), ",")[[1]]
# the splits prd_curve() averages (its `repeats`; default its own rule)
n_splits <- if (nzchar(opt("repeats", ""))) as.integer(opt("repeats", "")) else NULL
d <- 16L

# The package version measured: env COVERAGE_COMMIT, or main's commit when
# the run starts (install from that commit).
commit <- Sys.getenv("COVERAGE_COMMIT", "")
if (!nzchar(commit)) {
  commit <- tryCatch(suppressWarnings(system2("git", c("rev-parse", "--short", "HEAD"),
                                              stdout = TRUE, stderr = FALSE)),
                     error = function(e) "")
  if (!length(commit)) commit <- ""
}

# Draw i of setting s.
seed_of <- function(setting, i) 1000L * match(tolower(setting), letters) + i

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
             generated = list(model_1 = shifted(1), model_2 = shifted(1.5))),
    e = {
      dat <- prdcurve:::validity_draw(clusters_scenario(), n)
      list(real = dat$real, generated = dat$gens[["clusters_drop"]])
    }
  )
}

# The validity suite's clustered real distribution at d = 256 (setting e),
# built once
clusters_scenario <- local({
  g <- NULL
  function() {
    if (is.null(g)) {
      sc <- prdcurve:::validity_scenarios(256L, truth_n = 2e4, kinds = "clusters")
      g <<- sc[[which(vapply(sc, `[[`, "", "name") == "clusters")]]
    }
    g
  }
})

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
  cv <- prd_curve(dat$real, dat$generated, method = curve_methods,
                  replicates = R, repeats = n_splits)
  mm <- manifold_metrics(dat$real, dat$generated, metrics = manifold_stats,
                         k = 5, replicates = R)
  reps <- rbind(replicate_values(cv), replicate_values(mm))
  reps <- reps[order(reps$replicate), ]
  reps <- reps[reps$statistic %in% c(curve_stats, manifold_stats), ]
  reps <- reps[!(reps$method != "manifold" & !reps$statistic %in% curve_stats) &
               !(reps$method == "manifold" & !reps$statistic %in% manifold_stats), ]
  key <- function(df) paste(df$model, df$method, df$statistic)
  if (setting %in% c("a", "b", "e")) {
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

# ---- running ----------------------------------------------------------------

# One setting's draws. With --save FILE, the draws done so far are also
# kept in FILE-<setting>.rds every 10 draws, so an interrupted run can still
# be reported (--report FILE-a.rds,FILE-b.rds,...).
run_setting <- function(setting, draws = n_draws, R = n_reps) {
  prd_threads(1)
  t0 <- proc.time()[["elapsed"]]
  started <- Sys.time()
  out <- vector("list", draws)
  part_file <- if (nzchar(save_to)) sub("\\.rds$", paste0("-", setting, ".rds"), save_to)
  keep <- function(i) {
    res <- do.call(rbind, out[seq_len(i)])
    attr(res, "wall") <- proc.time()[["elapsed"]] - t0
    attr(res, "started") <- started
    attr(res, "finished") <- Sys.time()
    attr(res, "replicates") <- R
    attr(res, "commit") <- commit
    if (!is.null(part_file)) saveRDS(res, part_file)
    res
  }
  for (i in seq_len(draws)) {
    out[[i]] <- one_draw(setting, i, R)
    el <- proc.time()[["elapsed"]] - t0
    message(sprintf("[%s] draw %d/%d, %.0f s elapsed, about %.0f s left",
                    setting, i, draws, el, el / i * (draws - i)))
    if (i %% 10L == 0L && i < draws) keep(i)
  }
  keep(draws)
}

# ---- tables -------------------------------------------------------------------

label_of <- function(method, statistic) {
  ifelse(method == "manifold", paste0("manifold ", statistic),
         paste0(method, " ", statistic))
}

order_rows <- function(tab) {
  tab[order(match(tab$setting, letters[1:5]),
            match(tab$method, c(curve_methods, "manifold")),
            match(tab$statistic, c(curve_stats, manifold_stats))), ]
}

# The standard error a draw's interval uses: sqrt(mean(D^2) / 4) over the
# pair differences D of its replicate values (in replicate order; pair j =
# replicates 2j - 1, 2j; every set has 1,000 rows, so c = 4).
pair_diffs <- function(values) values[c(TRUE, FALSE)] - values[c(FALSE, TRUE)]
rule_se <- function(values) sqrt(mean(pair_diffs(values)^2) / 4)

calibration_table <- function(res) {
  res <- res[tolower(res$setting) %in% c("a", "b", "e"), ]
  if (!nrow(res)) return(NULL)
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    target <- mean(g$estimate)
    se <- vapply(g$values, rule_se, numeric(1))
    hit <- g$lower <= target & target <= g$upper
    p <- mean(hit, na.rm = TRUE)
    m <- sum(!is.na(hit))
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1], draws = m,
               target = target, sd_draws = stats::sd(g$estimate),
               se_halves = sqrt(mean(se^2)),
               at_one = mean(g$estimate >= 1),
               coverage = p, coverage_se = sqrt(p * (1 - p) / m),
               width = mean(g$upper - g$lower, na.rm = TRUE))
  }))
  order_rows(tab)
}

comparison_table <- function(res) {
  res <- res[tolower(res$setting) %in% c("c", "d"), ]
  if (!nrow(res)) return(NULL)
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    contains <- g$lower <= 0 & 0 <= g$upper
    p <- if (tolower(g$setting[1]) == "c") mean(contains) else mean(!contains)
    m <- nrow(g)
    se <- vapply(g$values, rule_se, numeric(1))
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1], draws = m,
               mean_difference = mean(g$estimate),
               sd_draws = stats::sd(g$estimate),
               se_halves = sqrt(mean(se^2)),
               rate = p, rate_se = sqrt(p * (1 - p) / m),
               width = mean(g$upper - g$lower))
  }))
  order_rows(tab)
}

# Where the half-sample variance goes wrong: E v is the mean over draws of
# the pair variance v = mean(D^2) / 4 (what the package uses), Var(theta_n)
# the variance of the estimate over draws, and Var(theta_{n/2}) the variance
# of one half-sample estimate over draws. A calibrated rule has
# E v / Var(theta_n) = 1; it is, exactly, Var(theta_{n/2}) / (2 Var(theta_n))
# (the two halves share no row), which is 1 when the statistic's variance
# scales as 1/n.
variance_table <- function(res) {
  res <- res[res$setting %in% letters, ]
  if (!nrow(res)) return(NULL)
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    V <- do.call(rbind, g$values)  # draws x R
    var_n <- stats::var(g$estimate)
    e <- (g$estimate - mean(g$estimate)) / stats::sd(g$estimate)
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1],
               var_n = var_n,
               pairs_ratio = mean(vapply(g$values, rule_se, 1)^2) / var_n,
               half_ratio = mean(apply(V, 2, stats::var)) / 2 / var_n,
               skewness = mean(e^3))
  }))
  order_rows(tab)
}

# Coverage of other interval rules, from the saved replicate values (no new
# draws): the package's rule est +- t_P sqrt(v) (P pairs); the same with the
# normal quantile; and the rule of prdcurve 0.2.0, which treated the 2P
# halves as independent half-samples (delete-d jackknife, d = n / 2, Shao and
# Wu 1989: variance f / (1 - f) Var* = Var* of the replicate values) with
# the normal quantile. All clamped as the package.
interval_variants <- function(est, values, statistic, level = conf_level,
                              paired = FALSE) {
  lo <- if (paired) -Inf else 0
  hi <- if (paired || statistic == "density") Inf else 1
  clamp <- function(a, b) c(max(lo, a), min(hi, b))
  z <- stats::qnorm((1 + level) / 2)
  tq <- stats::qt((1 + level) / 2, df = length(values) %/% 2)
  se <- rule_se(values)
  sdv <- stats::sd(values)
  list(package = clamp(est - tq * se, est + tq * se),
       normal = clamp(est - z * se, est + z * se),
       jackknife = clamp(est - z * sdv, est + z * sdv))
}

variants_table <- function(res) {
  if (!nrow(res)) return(NULL)
  groups <- split(res, list(res$setting, res$method, res$statistic),
                  drop = TRUE)
  tab <- do.call(rbind, lapply(groups, function(g) {
    paired <- g$setting[1] %in% c("c", "d")
    target <- if (paired) 0 else mean(g$estimate)
    iv <- Map(interval_variants, g$estimate, g$values, g$statistic,
              MoreArgs = list(paired = paired))
    rules <- names(iv[[1]])
    cov <- vapply(rules, function(r) {
      hit <- vapply(iv, function(x) x[[r]][1] <= target && target <= x[[r]][2],
                    logical(1))
      if (g$setting[1] == "d") mean(!hit) else mean(hit)
    }, numeric(1))
    data.frame(setting = g$setting[1], method = g$method[1],
               statistic = g$statistic[1], t(cov))
  }))
  order_rows(tab)
}

# ---- markdown -------------------------------------------------------------------

fmt <- function(x, digits = 3) formatC(x, format = "f", digits = digits)
pct <- function(p, se) paste0(fmt(100 * p, 1), " ± ", fmt(100 * se, 1))
flag_rate <- function(p, lo = 0.85, hi = 0.95) {
  ifelse(p < lo | p > hi, " *", "")
}

setting_names <- c(
  a = "(a) shifted", b = "(b) mixture",
  c = "(c) same distribution: contains 0",
  d = "(d) 0.5 apart: excludes 0",
  e = "(e) clustered, d = 256"
)

md_calibration <- function(tab) {
  c("| setting | statistic | target | sd over draws | pair se | share at 1 | coverage % (± se) | mean width |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s | %s | %s%s | %s |",
            setting_names[tab$setting],
            label_of(tab$method, tab$statistic), fmt(tab$target),
            fmt(tab$sd_draws, 4), fmt(tab$se_halves, 4),
            ifelse(tab$statistic == "density", "", fmt(tab$at_one, 2)),
            pct(tab$coverage, tab$coverage_se), flag_rate(tab$coverage),
            fmt(tab$width)))
}

md_comparison <- function(tab) {
  in_c <- tolower(tab$setting) == "c"
  c("| setting | statistic (model 2 - model 1) | mean difference | sd over draws | pair se | rate % (± se) | mean width |",
    "|---|---|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s | %s%s | %s |",
            setting_names[tab$setting], label_of(tab$method, tab$statistic),
            fmt(tab$mean_difference, 4), fmt(tab$sd_draws, 4),
            fmt(tab$se_halves, 4), pct(tab$rate, tab$rate_se),
            ifelse(in_c, flag_rate(tab$rate),
                   ifelse(tab$statistic == "auc" & tab$rate < 0.9, " *", "")),
            fmt(tab$width)))
}

md_variance <- function(tab) {
  c("| setting | statistic | Var(theta_n) | E v / Var(theta_n) | Var(theta_n/2) / (2 Var(theta_n)) | skewness |",
    "|---|---|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s | %s |",
            substr(setting_names[tab$setting], 1, 3),
            label_of(tab$method, tab$statistic),
            formatC(tab$var_n, format = "e", digits = 2),
            fmt(tab$pairs_ratio, 2), fmt(tab$half_ratio, 2),
            fmt(tab$skewness, 2)))
}

md_variants <- function(vt) {
  c("| setting | statistic | package (t, P df) | normal quantile | 0.2.0 rule (independent halves) |",
    "|---|---|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s | %s |",
            substr(setting_names[vt$setting], 1, 3),
            label_of(vt$method, vt$statistic),
            fmt(100 * vt$package, 1), fmt(100 * vt$normal, 1),
            fmt(100 * vt$jackknife, 1)))
}

# Counts of rows inside the 85-95% target (settings a, b and c).
summary_line <- function(ct, pt) {
  inside <- function(p) sum(p >= 0.85 & p <= 0.95)
  ext <- function(tab) tab$statistic %in% c("max_precision", "max_recall")
  cnt <- function(keep) {
    pc <- pt[tolower(pt$setting) == "c", ]
    p <- c(ct$coverage[keep(ct)], pc$rate[keep(pc)])
    c(inside(p), length(p), sum(p > 0.95))
  }
  a <- cnt(function(t) !ext(t))
  b <- cnt(ext)
  paste0("Rows of (a), (b), (c) inside 85-95%: auc and the manifold metrics ",
         a[1], " of ", a[2], "; max_precision and max_recall ", b[1], " of ",
         b[2], " (", b[3], " above 95%: conservative, see the variance ",
         "table).")
}

band <- function(m, p = conf_level) {
  h <- 2 * sqrt(p * (1 - p) / m)
  sprintf("%.1f%%-%.1f%%", 100 * (p - h), 100 * (p + h))
}

runs_line <- function(runs) {
  paste(vapply(seq_len(nrow(runs)), function(i) {
    sprintf("settings %s: %d draws, R = %d, %.1f minutes of wall time in %d processes (main at %s, run on %s)",
            runs$parts[i], runs$draws[i], runs$replicates[i],
            runs$wall[i] / 60, runs$cores[i], runs$commit[i], runs$date[i])
  }, ""), collapse = "; ")
}

write_results <- function(res, runs, path = "bench/results.md") {
  main <- res
  ct <- calibration_table(main)
  pt <- comparison_table(main)
  m <- max(c(ct$draws, pt$draws))
  rr <- runs
  sec <- c(
    "# Interval calibration",
    "",
    paste0("`Rscript bench/coverage.R --draws ", m, " --replicates ",
           rr$replicates[1], "`; ", R.version.string, "; prdcurve ",
           utils::packageVersion("prdcurve"), ". Runs: ", runs_line(runs),
           ".",
           if (nzchar(Sys.getenv("COVERAGE_NOTE"))) paste0(" ", Sys.getenv("COVERAGE_NOTE")),
           " Any draw reproduces alone: `source(\"bench/coverage.R\"); ",
           "one_draw(\"a\", 17, 40)`."),
    "",
    paste0("Every draw is fresh data: d = ", d, ", n = ", format(n, big.mark = ","),
           " rows per set (real and each generated set), ", m, " draws per ",
           "setting, R = ", rr$replicates[1], " replicates (", rr$replicates[1] %/% 2,
           " pairs of complementary halves), ",
           "90% intervals (`summary(conf_level = 0.9)`, the `lower`/`upper` ",
           "columns of `manifold_metrics()`, `prd_compare()`). Settings: (a) real ",
           "N(0, I), generated N(e_1, I); (b) real = equal mixture of the four ",
           "modes N(mu 1_d, I), mu = 0, 3, 6, 9, generated = the same mixture ",
           "without mu = 9; (c) two generated sets from N(e_1, I) and one real ",
           "set; (d) generated N(e_1, I) and N(1.5 e_1, I)",
           if ("e" %in% res$setting) paste0("; (e) the validity suite's 16 ",
             "overlapping classes at d = 256, generated without three of ",
             "them (the default takes the mixture family)"),
           ". Curves: ",
           "`prd_curve(method = ", deparse(curve_methods), ")`, split 0.5, default k ",
           "(22); metrics: `manifold_metrics(k = 5)`, no split."),
    "",
    paste0("`target` is the mean of the point estimates over the draws (the ",
           "estimator's own expectation at this n, not the population value); ",
           "`coverage` the share of draws whose interval contains it, with its ",
           "binomial standard error; `sd over draws` the actual standard ",
           "deviation of the estimate, `pair se` the root mean of the ",
           "variance the pairs estimate (equal to it in a calibrated ",
           "method); `share at 1` the share of draws whose estimate is exactly 1. ",
           "With ", m, " draws, a calibrated 90% interval gives a coverage in ",
           band(m), " (± 2 binomial se) in about 95% of the rows. `*`: outside ",
           "the 85-95% target."),
    "",
    md_calibration(ct),
    "",
    paste0("Paired comparison, 90% interval of model 2 - model 1 from ",
           "`prd_compare()`. In (c) the true difference is 0 and `rate` is the ",
           "share of intervals that contain 0 (target 85-95%); in (d) `rate` is ",
           "the share that exclude 0 (target at least 90% for auc; the other ",
           "rows are for information: the models' max_precision and ",
           "max_recall differ by only 0.02-0.03, the manifold precision and ",
           "recall by 0.045)."),
    "",
    md_comparison(pt),
    ""
  )
  vt <- variance_table(main)
  vv <- variants_table(main)
  sec <- c(sec, summary_line(ct, pt), "",
    "## Where the pair variance is too large",
    "",
    paste0("`E v / Var(theta_n)`: the variance the package uses (mean over ",
           "draws of v = mean(D^2) / 4, D the pair differences) over the ",
           "actual variance of the estimate over draws; 1 when calibrated. ",
           "`Var(theta_n/2) / (2 Var(theta_n))`: the variance of one ",
           "half-sample estimate (same k) over draws, halved, over the same; ",
           "the two halves of a pair share no row, so E v equals this exactly, ",
           "and it is 1 when the statistic's variance scales as 1/n. Skewness ",
           "of the estimate over draws."),
    "",
    md_variance(vt),
    "",
    "## Other interval rules on the same replicates",
    "",
    paste0("Coverage % of 90% intervals (for (d): share excluding 0). ",
           "`package`: est ± t_P sqrt(v), P = ", rr$replicates[1] %/% 2,
           " pairs (the tables above). `normal quantile`: est ± z sqrt(v). ",
           "`0.2.0 rule`: the 2P halves taken as independent half-samples, ",
           "est ± z sd* (delete-d jackknife with d = n/2, Shao and Wu 1989), ",
           "as prdcurve 0.2.0 did; the spread of overlapping halves equals ",
           "Var(theta_n) only for smooth statistics, and it overstated the ",
           "curve statistics' variance (bench/results.md, \"Intervals\")."),
    "",
    md_variants(vv),
    "")
  write_section(sec, path)
}

# ---- main -------------------------------------------------------------------

run_info <- function(res) {
  data.frame(parts = paste(unique(res$setting), collapse = ""),
             draws = length(unique(res$draw)),
             replicates = attr(res, "replicates") %||% NA_integer_,
             wall = attr(res, "wall") %||% NA_real_,
             cores = attr(res, "cores") %||% NA_integer_,
             commit = attr(res, "commit") %||% "",
             date = format(as.Date(attr(res, "finished") %||% Sys.time())))
}
`%||%` <- function(x, y) if (is.null(x)) y else x

if (!interactive() && sys.nframe() == 0L) {
  if (nzchar(report_from)) {
    saved <- lapply(strsplit(report_from, ",")[[1]], readRDS)
    runs <- do.call(rbind, lapply(saved, run_info))
    res <- do.call(rbind, saved)
  } else {
    t0 <- proc.time()[["elapsed"]]
    started <- Sys.time()
    # prescheduled round robin: settings 1, 3 in one process, 2, 4 in the other
    out <- parallel::mclapply(parts, run_setting, mc.cores = cores)
    bad <- vapply(out, inherits, logical(1), "try-error")
    if (any(bad)) stop("a setting failed: ", out[bad][[1]])
    res <- do.call(rbind, out)
    attr(res, "wall") <- proc.time()[["elapsed"]] - t0
    attr(res, "replicates") <- n_reps
    attr(res, "cores") <- min(cores, length(parts))
    attr(res, "commit") <- commit
    attr(res, "started") <- started
    attr(res, "finished") <- Sys.time()
    runs <- run_info(res)
    if (nzchar(save_to)) saveRDS(res, save_to)
  }
  old <- options(width = 200)
  show <- function(title, tab) {
    if (is.null(tab) || !nrow(tab)) return(invisible())
    cat("\n", title, "\n", sep = "")
    num <- vapply(tab, is.double, logical(1))
    tab[num] <- lapply(tab[num], round, 4)
    print(tab, row.names = FALSE)
  }
  show("Calibration of 90% intervals (coverage of the mean estimate)",
       calibration_table(res))
  show("Paired comparison: (c) share containing 0, (d) share excluding 0",
       comparison_table(res))
  show("Variance ratios", variance_table(res))
  show("Coverage of other interval rules on the same replicates",
       variants_table(res))
  options(old)
  print(runs, row.names = FALSE)
  csv <- opt("csv", "")
  if (nzchar(csv)) {
    # the table shipped as inst/extdata/calibration.csv
    ct <- calibration_table(res)
    pt <- comparison_table(res)
    csv_names <- c(a = "shifted Gaussians", b = "dropped mode",
                   c = "same distribution: contains 0",
                   d = "shifted by 0.5: excludes 0",
                   e = "clustered, d = 256")
    utils::write.csv(rbind(
      data.frame(setting = csv_names[ct$setting], method = ct$method,
                 statistic = ct$statistic, target = round(ct$target, 4),
                 sd_over_draws = round(ct$sd_draws, 4),
                 sd_from_halves = round(ct$se_halves, 4),
                 rate = round(ct$coverage, 3), rate_se = round(ct$coverage_se, 3),
                 mean_width = round(ct$width, 4)),
      # (no paired settings c, d in the run: no comparison rows)
      if (!is.null(pt) && nrow(pt))
        data.frame(setting = csv_names[pt$setting], method = pt$method,
                   statistic = pt$statistic, target = NA_real_,
                   sd_over_draws = round(pt$sd_draws, 4),
                   sd_from_halves = round(pt$se_halves, 4),
                   rate = round(pt$rate, 3), rate_se = round(pt$rate_se, 3),
                   mean_width = round(pt$width, 4))),
      csv, row.names = FALSE)
  }
  if (flag("write")) {
    write_results(res, runs)
    cat("Wrote bench/results.md\n")
  }
}
