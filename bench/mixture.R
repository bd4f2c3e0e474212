# The mixture family (R/family-mixture.R) on clustered data, against the
# true AUC, the exact log-likelihood ratio scored on the same evaluation
# rows (the oracle floor), the quadratic family and the default curve.
#
# Scenario: ten overlapping isotropic classes in d dimensions, means drawn
# N(0, (3 / sqrt(2 d))^2 I) (about 3 apart), standard deviations from 0.85
# to 1.15 (geometric), equal weights. Three models: "drop" (classes 1-3
# have weight 0), "reweight" (classes 1-3 three times as heavy), "widen"
# (every standard deviation times 1.15): cluster_scenario(d), the data of
# the validity suite's `clusters` group (R/validity-kinds.R, there with 16
# classes). The truth is cluster_truth(): prd_truth() from the exact
# mixture log-densities, drawn through the sufficient statistic of the
# classes' span (Monte Carlo, `mc` draws each). Every estimate uses one
# split (half of each set for evaluation): "mixture", "quadratic" and the
# default "tightest" run in one prd_curve() call with that split and their
# default folds (10); "with_mixture" is "tightest" with "mixture" added to
# its families (a second call). Time: prd_curve(method = "mixture")
# against prd_curve(method = "knn") on the same split (elapsed, medians of
# `reps`).
#
# Usage (package root): Rscript bench/mixture.R [--dims 64,256]
#   [--sizes 2000,5000] [--seeds 1] [--mc 50000] [--reps 3]
#   [--time 5000x256,20000x64]   (n x d of the timings, 0: none; --dims 0
#                                 times alone)
#   [--suite 1024,2048]   (the validity suite's clusters and
#                    clusters_lowrank groups at these d, 5,000 points per
#                    set: the default against the default with the mixture
#                    among its families, as AUC - truth, one draw; where the
#                    real set has more than 2^22 values the default leaves
#                    the mixture out and warns)
#   [--refits 3:100,8:100,8:40]   (the chosen mixtures' refits, `restarts`
#                    of fit_mixture() each run to at most `maxit` EM steps,
#                    3:100 in the package: the default and the mixture on
#                    the suite's widened rank-4 classes, 16 classes at d =
#                    --refits-dim (512), the first of --sizes points per
#                    set, each seed of --seeds a draw)
#   [--step-up 64,256,512]   (the validity suite's clusters and
#                    clusters_lowrank groups at these d, 5,000 points per
#                    set, a draw per seed of --seeds: the mixture family and
#                    the default, their refits with up to twice the
#                    components chosen (the package) against the number
#                    chosen (fit_mixture(step_up = FALSE)), as AUC - truth)
#   [--simpler 64,256,512]   (the same groups, draws and columns: the
#                    pair of fewest parameters taken where the least
#                    held-out loss is not 2 standard errors below a
#                    constant score's (mixture_simpler(), the package)
#                    against the least loss always; each model's real set
#                    also against a second draw of itself, Q = P)
#   [--installed]   (the installed package; else pkgload::load_all(), whose
#                    C code is compiled without optimisation: time with
#                    --installed)
args <- commandArgs(trailingOnly = TRUE)
source("bench/common.R")
bench_package(args)
options(prdcurve.progress = FALSE, width = 150)
opt <- function(name, default) {
  i <- match(paste0("--", name), args)
  if (is.na(i)) default else as.numeric(strsplit(args[i + 1L], ",")[[1]])
}
dims <- opt("dims", c(64, 256))
sizes <- opt("sizes", c(2000, 5000))
seeds <- opt("seeds", 1)
mc <- opt("mc", 50000)
reps <- opt("reps", 3)
time_at <- local({
  i <- match("--time", args)
  v <- if (is.na(i)) "5000x256" else strsplit(args[i + 1L], ",")[[1]]
  Filter(function(nd) length(nd) == 2L && all(nd > 0),
         lapply(strsplit(v, "x"), as.numeric))
})
lambda <- lambda_grid(1001)

scenario <- function(d) cluster_scenario(d, classes = 10L)

auc_of <- function(s_real, s_gen) {
  envelope_auc(lambda, curve_from_scores(s_real, s_gen, lambda))
}

rows <- list()
timing <- list()
for (d in dims[dims > 0]) for (n in sizes) for (seed in seeds) {
  set.seed(seed * 1000 + d)
  sc <- scenario(d)
  x <- sc$real$sample(n)
  ex <- sort(sample.int(n, n / 2))
  ys <- lapply(sc$models, function(m) m$sample(n))
  ey <- sort(sample.int(n, n / 2))
  cv <- suppressWarnings(prd_curve(x, ys,
                                   method = c("quadratic", "mixture", "tightest"),
                                   split = list(real = ex, generated = ey)))
  # the default with the mixture among its families
  cm <- suppressWarnings(prd_curve(x, ys, method = "tightest",
                                   families = c(tightest_default(), "mixture"),
                                   split = list(real = ex, generated = ey)))
  s <- summary(cv)
  sm <- summary(cm)
  auc <- function(m, f) round(s$auc[s$model == m & s$method == f], 3)
  for (m in names(sc$models)) {
    q <- sc$models[[m]]
    truth <- summary(cluster_truth(sc$real, q, n = mc, angles = 1001))$auc
    lr <- function(z) q$log_density(z) - sc$real$log_density(z)
    oracle <- auc_of(lr(x[ex, ]), lr(ys[[m]][ey, ]))
    rows[[length(rows) + 1L]] <- data.frame(
      d = d, n = n, seed = seed, model = m, truth = round(truth, 3),
      oracle = round(oracle, 3), mixture = auc(m, "mixture"),
      quadratic = auc(m, "quadratic"), tightest = auc(m, "tightest"),
      with_mixture = round(sm$auc[sm$model == m], 3))
    message(paste(format(rows[[length(rows)]]), collapse = " "))
  }
}
if (length(rows)) {
  r <- do.call(rbind, rows)
  cat("\nAUC: truth (Monte Carlo, ", mc, " draws), oracle floor, families\n",
      sep = "")
  print(r, row.names = FALSE, right = TRUE)

  err <- function(v) round(mean(abs(r[[v]] - r$truth)), 3)
  cat("\nmean |AUC - truth|: oracle", err("oracle"), " mixture", err("mixture"),
      " quadratic", err("quadratic"), " tightest", err("tightest"),
      " tightest with mixture", err("with_mixture"), "\n")
}

# the suite's clustered kinds: the default with and without the mixture
suite_dims <- opt("suite", numeric())
for (d in suite_dims) {
  sc <- validity_scenarios(d, truth_n = mc * 4, angles = 1001,
                           kinds = c("clusters", "clusters_lowrank"))
  for (g in sc[vapply(sc, `[[`, "", "name") %in% c("clusters", "clusters_lowrank")]) {
    set.seed(1)
    x <- g$real(5000)
    ys <- lapply(g$models, function(m) m$sample(5000))
    set.seed(2)
    s0 <- summary(suppressWarnings(prd_curve(x, ys)))
    set.seed(2)
    el <- system.time(s1 <- summary(suppressWarnings(prd_curve(
      x, ys, families = c(tightest_default(), "mixture")))))[["elapsed"]]
    truth <- vapply(g$models, `[[`, 0, "truth_auc")
    cat(sprintf("\nsuite, d = %d, group %s (the call with the mixture: %.1f s)\n",
                d, g$name, el))
    print(data.frame(model = names(g$models), truth = round(truth, 3),
                     default = round(s0$auc - truth, 3),
                     with_mixture = round(s1$auc - truth, 3)),
          row.names = FALSE)
  }
}

# Two settings of the package on the validity suite's clusters and
# clusters_lowrank groups at each d of `dims`, 5,000 points per set, a draw
# per seed: `set(TRUE)` the package's, `set(FALSE)` the other (`old`),
# restored after; the mixture family's and the default's AUC - truth and
# the seconds of the call (both families in one call), per model; `same`:
# also a second draw of the real set (Q = P, truth 1).
compare_settings <- function(dims, set, what, old, same = FALSE) {
  out <- NULL
  for (d in dims) {
    sc <- validity_scenarios(d, truth_n = mc * 4, angles = 1001,
                             kinds = c("clusters", "clusters_lowrank"))
    for (g in sc[vapply(sc, `[[`, "", "name") %in% c("clusters", "clusters_lowrank")]) {
      for (seed in seeds) {
        set.seed(100 + seed)
        x <- g$real(5000)
        ys <- lapply(g$models, function(m) m$sample(5000))
        truth <- vapply(g$models, `[[`, 0, "truth_auc")
        if (same) {
          ys$same <- g$real(5000)
          truth[["same"]] <- 1
        }
        a <- list()
        for (now in c(TRUE, FALSE)) {
          set(now)
          set.seed(7)
          el <- system.time(s <- summary(suppressWarnings(
            prd_curve(x, ys, method = c("tightest", "mixture")))))[["elapsed"]]
          a[[if (now) "new" else "old"]] <- s
          a[[if (now) "new_s" else "old_s"]] <- el
        }
        err <- function(s, m) round(s$auc[s$method == m] - truth[s$model[s$method == m]], 3)
        out <- rbind(out, data.frame(
          d = d, seed = seed, model = names(ys), truth = round(truth, 3),
          mixture_old = err(a$old, "mixture"), mixture_new = err(a$new, "mixture"),
          default_old = err(a$old, "tightest"), default_new = err(a$new, "tightest"),
          seconds_old = round(a$old_s, 1), seconds_new = round(a$new_s, 1)))
        message(sprintf("%s: d = %d, %s, seed %d done", what, d, g$name, seed))
      }
    }
  }
  set(TRUE)
  cat(sprintf("\n%s; old: %s. AUC - truth, 5,000 points per set (seconds: the call, both models)\n",
              what, old))
  print(out, row.names = FALSE)
  cat("\nmean |AUC - truth| per d:\n")
  ab <- out
  ab[, 5:8] <- abs(ab[, 5:8])
  print(stats::aggregate(cbind(mixture_old, mixture_new, default_old, default_new,
                               seconds_old, seconds_new) ~ d,
                         ab, mean), row.names = FALSE, digits = 3)
  cat(sprintf(paste("\nall: mixture %.4f -> %.4f, default %.4f -> %.4f; new worse by",
                    "more than 0.005: mixture %d, default %d of %d\n"),
              mean(ab$mixture_old), mean(ab$mixture_new), mean(ab$default_old),
              mean(ab$default_new), sum(ab$mixture_new > ab$mixture_old + 0.005),
              sum(ab$default_new > ab$default_old + 0.005), nrow(ab)))
}

# a formal argument's default of a function of the namespace
set_formal <- function(fn, arg, value) {
  ns <- asNamespace("prdcurve")
  f <- get(fn, envir = ns)
  formals(f)[[arg]] <- value
  unlockBinding(fn, ns)
  assign(fn, f, envir = ns)
  lockBinding(fn, ns)
}
# the refits' number of components: up to twice the choice, or the choice
# (fit_mixture()'s step_up)
step_dims <- opt("step-up", numeric())
if (length(step_dims)) {
  compare_settings(step_dims, function(up) set_formal("fit_mixture", "step_up", up),
                   "the refits' components up to twice the number chosen",
                   "the number chosen")
}
# the fewest parameters where the least loss does not beat a constant score
# by 2 standard errors, or the least loss (mixture_simpler()'s se_mult)
simpler_dims <- opt("simpler", numeric())
if (length(simpler_dims)) {
  compare_settings(simpler_dims, function(on) {
    set_formal("mixture_simpler", "se_mult", if (on) 2 else -Inf)
  }, "the fewest parameters unless the least loss beats a constant score by 2 SE",
  "the least loss", same = TRUE)
}

# the refits of the chosen mixtures: restarts and EM steps (the package's
# fit_mixture() and mixture_em(_tied)() with other defaults, restored after)
refits <- local({
  i <- match("--refits", args)
  if (is.na(i)) list() else
    lapply(strsplit(strsplit(args[i + 1L], ",")[[1]], ":"), as.integer)
})
set_refits <- function(restarts, maxit) {
  ns <- asNamespace("prdcurve")
  for (nm in c("fit_mixture", "mixture_em", "mixture_em_tied")) {
    f <- get(nm, envir = ns)
    if (nm == "fit_mixture") formals(f)$restarts <- restarts else
      formals(f)$maxit <- maxit
    unlockBinding(nm, ns)
    assign(nm, f, envir = ns)
    lockBinding(nm, ns)
  }
}
if (length(refits)) {
  d <- opt("refits-dim", 512)
  n <- sizes[1]
  out <- NULL
  for (seed in seeds) {
    set.seed(seed)
    sc <- cluster_scenario(d, classes = 16L, rank = 4L)
    x <- sc$real$sample(n)
    y <- sc$models$widen$sample(n)
    truth <- summary(cluster_truth(sc$real, sc$models$widen, n = mc * 4))$auc
    for (rf in refits) {
      set_refits(rf[1], rf[2])
      set.seed(100 + seed)
      el <- system.time(cv <- suppressWarnings(prd_curve(
        x, y, method = c("tightest", "mixture"))))[["elapsed"]]
      a <- stats::setNames(summary(cv)$auc, summary(cv)$method)
      out <- rbind(out, data.frame(seed = seed, refits = paste(rf, collapse = ":"),
                                   truth = round(truth, 3),
                                   tightest = round(a[["tightest"]] - truth, 3),
                                   mixture = round(a[["mixture"]] - truth, 3),
                                   seconds = round(el, 1)))
      message(paste(format(out[nrow(out), ]), collapse = " "))
    }
  }
  set_refits(3L, 100L)
  cat(sprintf("\nrefits (restarts:EM steps), widened rank-4 classes, d = %d, %s points per set: AUC - truth\n",
              d, format(n, big.mark = ",")))
  print(out, row.names = FALSE)
  cat("\nmeans over the draws:\n")
  print(stats::aggregate(cbind(tightest, mixture, seconds) ~ refits, out, mean),
        row.names = FALSE, digits = 3)
}

# time against knn at each n x d of --time (16 classes above d = 256, as the
# validity suite's), the "drop" model
for (nd in time_at) {
  n <- nd[1]
  d <- nd[2]
  set.seed(7)
  sc <- cluster_scenario(d, classes = if (d > 256) 16L else 10L)
  x <- sc$real$sample(n)
  y <- sc$models$drop$sample(n)
  ex <- sort(sample.int(n, n / 2))
  ey <- sort(sample.int(n, n / 2))
  tm <- function(method) {
    median(vapply(seq_len(reps), function(i) {
      system.time(suppressWarnings(prd_curve(
        x, y, method = method, split = list(real = ex, generated = ey))))[["elapsed"]]
    }, numeric(1)))
  }
  t_knn <- tm("knn")
  t_mix <- tm("mixture")
  cat(sprintf("\ntime at %s x %s (medians of %d): knn %.2f s, mixture %.2f s (%.1f x knn)\n",
              format(n, big.mark = ","), format(d, big.mark = ","), reps, t_knn,
              t_mix, t_mix / t_knn))
}
