# The validity suite: prdcurve's curves against the true PR curve.
#
# Each scenario is a pair of distributions with an exact or Monte Carlo
# true curve (prdcurve:::validity_scenarios(), R/validity.R): mean shifts
# of 0.5, 1 and 2 sd along an axis and along a random direction, variance
# deflation (0.8) and inflation (1.2), mode dropping in a mixture (1 and 2
# of 4 modes), mode collapse (20 distinct points), 5% outliers, heavy tails
# (multivariate Student t, 5 df), anisotropic covariance (Mahalanobis
# shift 1 and 2), and Q = P; at d <= 64 also mixed-type tables (d
# continuous columns and two categorical ones: category drifts with the
# continuous columns unchanged, exact truth by prd_discrete() of the
# categories' joint law, and categories that change the law of a continuous
# column, truth by Monte Carlo; R/validity-tabular.R). The models of one real distribution are
# estimated in one prd_curve() call on one real set, so pairs of them can
# be ranked, as a user compares models.
#
# Groups of the kinds real embeddings show, run when --groups names them
# (R/validity-kinds.R; `kinds` names all six): `clusters` (16 overlapping
# isotropic classes with unequal spreads: 3 classes dropped, 3 reweighted,
# every class 15% wider; Monte Carlo truth from the exact mixture
# log-densities, drawn through a sufficient statistic of the classes'
# span), `clusters_lowrank` (the same with low-rank-plus-diagonal class
# covariances), `heavy_t3` and `heavy_laplace` (independent Student t(3) or
# Laplace coordinates, every coordinate 1.1 or 0.9 times as wide; Monte
# Carlo truth from the exact product densities, min(truth-n, 2e8 / d)
# draws), `manifold` (an 8-dimensional latent N(0, I) embedded by an
# injective curved map; latent mean shift 1, latent scales 0.8 and 1.2;
# the latent truth, exact or chi-square Monte Carlo) and `truncation`
# (N(0, I) restricted to a ball of mass 0.5 or 0.8, to a slab of mass
# 0.7 or to a half-space of mass 0.6: the rectangle, exact). Their models carry the exact log-likelihood
# ratio, scored on the evaluation rows prd_curve() draws
# (prdcurve:::curve_eval_rows()) with the curve's grid: the `oracle`
# floor. Estimate - oracle is the families' part of an error, oracle -
# truth the sample's; the tables then show the oracle's mean |AUC error|
# and, per scenario, the signed errors. Every group's models also carry the
# exact log ratio (the oracle of the Gaussians, Student t, mixtures and
# tables from their densities) and their true parametric form, fitted by
# maximum likelihood on the fit rows and scored like the oracle: the
# `floor` (the estimation floor, R/validity-floor.R; class mixtures fitted
# with the class labels known; none for the manifold and truncation
# groups). The target (SPEC.md section 7): the estimate within 0.05 of the
# truth at d <= 512 (0.10 above), or of the floor where that is further:
# the `excess` beyond the interval from the truth to the floor at most eps.
#
# Part "grid" (no replicates): for every d, n, repeat and family, the AUC
# error against the truth, the IoU with the true curve (prd_iou()), and
# the ranking of every pair of models of the same call whose true AUCs
# differ by more than 0.01 (agreeing when the estimated AUCs are in the
# true order).
# Part "coverage" (replicates, a smaller sub-grid): 90% half-sample
# intervals (summary(conf_level = 0.9); prd_compare()'s paired interval for
# the differences) and how often they contain the estimator's own mean
# (the mean of the estimates over the draws) and the truth, equal and
# unequal set sizes; the manifold metrics (manifold_metrics(k = 5)) for
# their own mean. A pair of models ranks "by the interval" when the
# paired interval of the AUC difference excludes 0.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/validity.R                  # the full suite (about an hour on a quiet
#                                             # 2-core machine: see "Budget" below)
#   Rscript bench/validity.R --fast           # d = 256, n = 1,000, one repeat, 20 draws
#   Rscript bench/validity.R --write          # also write the CSV and the results section
# --write: the CSV (--csv) gets every row of the tables, one `kind` each:
# "accuracy" (per d, n, group, scenario and family: truth, estimate (the
# mean over repeats), sd, mean_abs_error, max_abs_error, iou, false_high,
# false_high_unwarned, warned, warnings; oracle_error, oracle_abs_error,
# floor_error, floor_abs_error where the run has the floors; excess,
# target_met), "ranking" (per d, n and family: count, agree, worst_pair),
# "coverage" (per setting, scenario, family and statistic: count, truth,
# estimate, sd, coverage_own, coverage_truth, width) and "compare" (per
# setting and family: count, agree, excluding_zero, agree_when_excluding,
# wrong_when_excluding). The section of --results holds only summaries
# (bench/validity-tables.R): per family and d at n = 5,000 (else the largest
# n), accuracy, ranking, the target met and the floors by n and d, the
# pooled interval calibration and the paired comparisons.
# Options:
#   --families knn,kde,...   families (default: every method of prd_curve(),
#                            "tightest" included when available)
#   --dims 16,64,256,1024,2048        --sizes 1000,5000,20000
#   --repeats 5,3,1           repeats for each size of --sizes (one number: all)
#   --large-dims 16,64,256    the dims at which n = 20,000 runs (n > 5,000)
#   --parts grid,coverage     --draws 50 (coverage draws per setting)
#   --groups gauss,mixture,aniso,tabular   the grid's groups of scenarios (also
#                             clusters, clusters_lowrank, heavy_t3, heavy_laplace,
#                             manifold, truncation; `kinds`: those six)
#   --replicates 10           half-sample replicates (5 pairs) in the coverage part
#   --coverage-settings 64:1000:1000,256:1000:1000,256:1000:500
#                             coverage part: d:n_real:n_generated
#   --cores 2                 forked worker processes (each one engine thread;
#                             OPENBLAS_NUM_THREADS=1 is set by re-running the script)
#   --csv inst/extdata/validity.csv.gz   --results bench/results.md
#   --save FILE.rds           every estimate and interval (raw, not shipped)
#   --merge                   with --write: this run's rows replace the rows
#                             of the same kind, d, sizes, group, scenario,
#                             family and statistic in the CSV, the others
#                             stay; the results section then shows the whole
#                             merged CSV (runs of some families or parts)
#   --from-csv                no run: the tables (and with --write the results
#                             section) from the CSV as it is
#   --note TEXT               a paragraph under the results section's first
#                             (with --merge or --from-csv: which runs the
#                             CSV's rows come from)
#   --report FILE.rds[,FILE2.rds]      tables (and --write) from saved runs
#   --truth-n 1e6             Monte Carlo draws of the radial truths
#   --folds K                 prd_curve(folds = K): the fitted families
#                             cross-fitted in K folds (default: the
#                             package's, 10; 1: one fit on the fit rows)
#   --no-manifold             no manifold_metrics() in the coverage part
#   --save-replicates DIR     coverage part: every curve's replicate values, a file
#                             per task (for bench/interval-rules.R)
# Budget. CPU seconds measured on a loaded machine (2026-11-24, one engine
# and one BLAS thread per task, seven families; the `cpu` column of --save):
# one repeat of the grid (all 16 scenarios, d = 16 to 2,048) took 63 s at
# n = 1,000 and 502 s at n = 5,000 (263 s of it at d = 2,048); at n = 5,000,
# d = 16, 64 and 256 together 156 s, so about 2,500 s at n = 20,000 (n^2);
# a coverage draw (4 + 2 models, R = 10) 15-19 s per setting. The defaults
# (repeats 5, 3, 1 for n = 1,000, 5,000, 20,000; n = 20,000 at d = 16, 64,
# 256; 50 draws of three coverage settings) need about 7,000 CPU seconds:
# about an hour in two processes on a quiet 2-core machine.
# The new groups (2026-11-29, tightest and knn, n = 5,000, one repeat,
# --cores 1, load average 8-12 on 2 cores): clusters, clusters_lowrank,
# manifold and truncation at d = 256 and 2,048 took 14.7 minutes (the
# truths at --truth-n 1e6 5.6 of them, mostly clusters_lowrank's); heavy_t3
# and heavy_laplace at d = 512 and 2,048 with --truth-n 2e4 7.2 minutes.
# Every task (d, n, repeat, group) uses its own seed, so any one reproduces
# alone: source("bench/validity.R"); grid_task(list(d = 256, n = 1000, rep = 1, group = "gauss")).

suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
source("bench/validity-tables.R")

args <- commandArgs(trailingOnly = TRUE)
nums <- function(x) as.numeric(strsplit(x, ",")[[1]])

fast <- flag("fast")
cores <- as.integer(opt("cores", "2"))
if (!interactive() && sys.nframe() == 0L && cores > 1L &&
    !nzchar(Sys.getenv("OPENBLAS_NUM_THREADS"))) {
  # one BLAS thread per worker: re-run with the variable set before start
  Sys.setenv(OPENBLAS_NUM_THREADS = "1")
  status <- system2(file.path(R.home("bin"), "Rscript"),
                    c("bench/validity.R", shQuote(args)))
  quit(save = "no", status = status)
}
available <- prdcurve:::curve_methods()
families <- strsplit(opt("families", paste(c(
  intersect(c("knn", "kde", "ipr", "coverage", "linear", "quadratic", "stacked",
              "marginal"),
            available),
  intersect("tightest", available)), collapse = ",")), ",")[[1]]
dims <- nums(opt("dims", if (fast) "256" else "16,64,256,1024,2048"))
sizes <- nums(opt("sizes", if (fast) "1000" else "1000,5000,20000"))
repeats <- rep_len(nums(opt("repeats", if (fast) "1" else "5,3,1")), length(sizes))
large_dims <- nums(opt("large-dims", "16,64,256"))
parts <- strsplit(opt("parts", "grid,coverage"), ",")[[1]]
n_draws <- as.integer(opt("draws", if (fast) "20" else "50"))
n_reps <- as.integer(opt("replicates", "10"))
cov_settings <- lapply(strsplit(strsplit(opt("coverage-settings",
  if (fast) "256:1000:1000,256:1000:500" else "64:1000:1000,256:1000:1000,256:1000:500"),
  ",")[[1]], ":"), as.numeric)
cov_dims <- unique(vapply(cov_settings, `[[`, 0, 1))
csv_path <- opt("csv", "inst/extdata/validity.csv.gz")
# (a path ending in .gz is written compressed; read.csv() reads either)
csv_con <- function(path) if (grepl("\\.gz$", path)) gzfile(path) else path
results_path <- opt("results", "bench/results.md")
truth_n <- as.numeric(opt("truth-n", "1e6"))
manifold <- !flag("no-manifold")
save_to <- opt("save", "")
reps_dir <- opt("save-replicates", "")
folds <- if (nzchar(opt("folds", ""))) as.integer(opt("folds", "")) else NULL
conf_level <- 0.9
# the models of the coverage part (a subset: mean shift, noise, heavy tails,
# outliers, and a dropped mode of a mixture)
cov_models <- c("shift_axis_1", "var_1.2", "student_t", "outliers", "drop_1",
                "drop_2")

group_index <- c(gauss = 1L, mixture = 2L, aniso = 3L, tabular = 4L)
kinds <- prdcurve:::validity_kinds
groups <- strsplit(opt("groups", paste(names(group_index), collapse = ",")), ",")[[1]]
groups <- unique(unlist(lapply(groups, function(g) if (g == "kinds") kinds else g)))
group_index <- c(group_index, stats::setNames(4L + seq_along(kinds), kinds))
if (length(bad <- setdiff(groups, names(group_index)))) {
  stop("unknown --groups: ", paste(bad, collapse = ", "), "; the groups: ",
       paste(c(names(group_index), "kinds"), collapse = ", "))
}
seed_of <- function(d, n, rep, group, part = 0L) {
  as.integer((part * 7L + match(d, c(16, 64, 256, 1024, 2048), nomatch = 6L)) * 1e6 +
               n %% 100003 * 7 + rep * 101 + group_index[[group]])
}

# Truths per d, computed once in the main process (forked workers share them).
scenario_cache <- new.env()
scenarios_at <- function(d) {
  key <- as.character(d)
  if (is.null(scenario_cache[[key]])) {
    scenario_cache[[key]] <- prdcurve:::validity_scenarios(
      d, truth_n = truth_n, kinds = intersect(kinds, groups))
  }
  scenario_cache[[key]]
}
group_at <- function(d, group) {
  sc <- scenarios_at(d)
  i <- match(group, vapply(sc, `[[`, "", "name"))
  if (is.na(i)) NULL else sc[[i]] # (tabular: d <= 64 only)
}

# Evaluate `expr`, muffling its warnings and keeping their classes and
# messages (the warnings are part of the result: a family far above the
# truth should warn, naming the model).
with_warnings <- function(expr) {
  caught <- list()
  value <- withCallingHandlers(expr, warning = function(w) {
    cls <- setdiff(class(w), c("warning", "condition", "rlang_warning"))
    caught[[length(caught) + 1L]] <<- list(class = paste(cls, collapse = "/"),
                                           message = conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  list(value = value, caught = caught)
}

# The classes of the caught warnings whose message names model `m` (or that
# name no model of `models`), ";"-separated.
warnings_for <- function(caught, m, models) {
  quoted <- function(x) paste0("[\"'\u201c\u2018]", gsub(".", "\\.", x, fixed = TRUE),
                               "[\"'\u201d\u2019]")
  hit <- vapply(caught, function(w) {
    named <- vapply(models, function(x) grepl(quoted(x), w$message), logical(1))
    named[[m]] || !any(named)
  }, logical(1))
  paste(unique(vapply(caught[hit], `[[`, "", "class")), collapse = ";")
}

# ---- part 1: the grid ---------------------------------------------------------

grid_task <- function(task) {
  g <- group_at(task$d, task$group)
  set.seed(seed_of(task$d, task$n, task$rep, task$group))
  # (the draws of g$real and of every sampler, with each row's class where
  # the sets are class mixtures: the labelled fit of the estimation floor)
  dr <- prdcurve:::validity_draw(g, task$n)
  real <- dr$real
  gens <- dr$gens
  t0 <- proc.time()
  # the tables' own family beside the others (in "tightest" by default there)
  meth <- if (is.data.frame(real)) union(families, intersect("logit", available)) else
    families
  # the oracle floor: the exact log-likelihood ratio on the evaluation rows
  # that prd_curve() is about to draw (the same draws, then the same state)
  oracle <- !vapply(g$models, function(m) is.null(m$log_ratio), NA)
  # and the estimation floor: the true form fitted on the other (fit) rows
  has_form <- !vapply(g$models, function(m) is.null(m$form), NA)
  if (any(oracle | has_form)) {
    state <- get(".Random.seed", globalenv())
    fr <- prdcurve:::validity_floor_rows(real, gens)
    ev <- fr$eval
    assign(".Random.seed", state, globalenv())
  }
  # below 1,000 rows a set the curve averages several splits, whose floors
  # one split's rows do not give: NA there
  one_split <- !any(oracle | has_form) || ev$repeats == 1L
  fit <- with_warnings(prd_curve(real, gens, method = meth, folds = folds))
  secs <- (proc.time() - t0)[["elapsed"]]
  cpu <- sum((proc.time() - t0)[c("user.self", "sys.self")])
  cv <- fit$value
  s <- summary(cv)
  rows <- lapply(names(g$models), function(m) {
    tr <- g$models[[m]]$truth
    ts <- summary(tr)
    sm <- s[s$model == m, ]
    iou <- prd_iou(cv[cv$model == m, ], tr)
    oracle_auc <- if (oracle[[m]] && one_split) {
      summary(prdcurve:::oracle_curve(g$models[[m]]$log_ratio, real, gens[[m]],
                                      list(real = ev$real, generated = ev$generated[[m]])))$auc
    } else NA_real_
    out <- data.frame(d = task$d, n = task$n, rep = task$rep, group = task$group,
               scenario = m, method = sm$method,
               truth_auc = ts$auc, auc = sm$auc,
               truth_max_precision = ts$max_precision,
               max_precision = sm$max_precision,
               truth_max_recall = ts$max_recall, max_recall = sm$max_recall,
               iou = unname(iou[match(sm$method, sub("/.*", "", names(iou)))]),
               seconds = secs, cpu = cpu,
               warnings = warnings_for(fit$caught, m, names(g$models)))
    if (any(oracle)) out$oracle_auc <- oracle_auc
    if (any(has_form)) {
      out$floor_auc <- if (has_form[[m]] && one_split) {
        rows <- list(fit = list(real = fr$fit$real, generated = fr$fit$generated[[m]]),
                     eval = list(real = ev$real, generated = ev$generated[[m]]))
        cl <- list(real = dr$classes$real, generated = dr$classes$generated[[m]])
        summary(prdcurve:::floor_curve(g$models[[m]]$form, real, gens[[m]], rows, cl))$auc
      } else NA_real_
    }
    out
  })
  do.call(rbind, rows)
}

grid_tasks <- function() {
  tasks <- list()
  for (i in seq_along(sizes)) for (d in dims) {
    n <- sizes[i]
    if (n > 5000 && !d %in% large_dims) next
    for (r in seq_len(repeats[i])) for (grp in intersect(names(group_index), groups)) {
      if (is.null(group_at(d, grp))) next
      tasks[[length(tasks) + 1L]] <- list(d = d, n = n, rep = r, group = grp,
                                          cost = n^2 * (d + 64) *
                                            length(group_at(d, grp)$models))
    }
  }
  tasks
}

# ---- part 2: interval coverage --------------------------------------------------

# Estimates and 90% intervals of auc, max_precision, max_recall of every
# model and family (summary()'s intervals), the paired intervals of every
# pair of models' differences (prd_compare()'s, for every baseline), and the
# manifold metrics' intervals.
coverage_task <- function(task) {
  g <- group_at(task$d, task$group)
  models <- g$models[intersect(cov_models, names(g$models))]
  set.seed(seed_of(task$d, task$n_real * 10 + task$n_gen, task$draw, task$group, 1L))
  real <- g$real(task$n_real)
  gens <- lapply(models, function(m) m$sample(task$n_gen))
  t0 <- proc.time()
  fit <- with_warnings(prd_curve(real, gens, method = families,
                                 folds = folds, replicates = n_reps))
  cv <- fit$value
  # the statistics of every curve and of its replicates, and the intervals
  # of summary() (curve_interval(): estimate +- t_P sqrt(v), clamped to
  # [0, 1], with the Wilson part for max_precision and max_recall at their
  # bound) and the half-sample part of prd_compare()'s
  stats <- c("auc", "max_precision", "max_recall")
  info <- prd_curve_info(cv)
  curve_values <- function(rows) {
    prdcurve:::curve_stats(rows$lambda, rows$precision, rows$recall)[stats]
  }
  per <- lapply(seq_len(nrow(info)), function(i) {
    rows <- cv[cv$model == info$model[i] & cv$method == info$method[i], ]
    rc <- info$replicates[[i]]
    reps <- vapply(split(rc, rc$replicate), curve_values, numeric(length(stats)))
    list(model = info$model[i], method = info$method[i], estimate = curve_values(rows),
         reps = reps, ids = sort(unique(rc$replicate)), divisor = info$divisor[i],
         n_eval = c(real = info$n_eval_real[i], generated = info$n_eval_generated[i]))
  })
  truth <- lapply(models, function(m) summary(m$truth))
  if (nzchar(reps_dir)) {
    # every curve's statistics and replicate values, for other interval rules
    # (bench/interval-rules.R)
    dir.create(reps_dir, showWarnings = FALSE, recursive = TRUE)
    saveRDS(list(task = task, per = per, truth = truth),
            file.path(reps_dir, sprintf("%s-%g-%g-%g-%03d.rds", task$group, task$d,
                                        task$n_real, task$n_gen, task$draw)))
  }
  est <- do.call(rbind, lapply(per, function(p) {
    ci <- vapply(stats, function(st) prdcurve:::curve_interval(
      st, p$estimate[[st]], p$reps[st, ], p$ids, p$divisor, conf_level, p$n_eval),
      numeric(2))
    data.frame(scenario = p$model, method = p$method, statistic = stats,
               truth = vapply(stats, function(st) truth[[p$model]][[st]], 0),
               estimate = unname(p$estimate), lower = ci[1, ], upper = ci[2, ])
  }))
  ms <- names(models)
  cmp <- do.call(rbind, lapply(families, function(f) {
    pf <- Filter(function(p) p$method == f, per)
    pf <- pf[match(ms, vapply(pf, `[[`, "", "model"))]
    do.call(rbind, lapply(utils::combn(length(ms), 2, simplify = FALSE), function(ij) {
      a <- pf[[ij[2]]]
      b <- pf[[ij[1]]]
      diff <- a$estimate[["auc"]] - b$estimate[["auc"]]
      ci <- prdcurve:::replicate_interval(diff, a$reps["auc", ] - b$reps["auc", ],
                                          a$ids, a$divisor, conf_level)
      data.frame(scenario = paste(a$model, "-", b$model), method = f,
                 statistic = "auc_difference",
                 truth = truth[[a$model]]$auc - truth[[b$model]]$auc,
                 estimate = diff, lower = ci[[1]], upper = ci[[2]])
    }))
  }))
  out <- rbind(est, cmp)
  if (manifold) {
    mm <- with_warnings(manifold_metrics(real, gens, k = 5, replicates = n_reps,
                                         metrics = c("precision", "recall",
                                                     "density", "coverage")))$value
    out <- rbind(out, data.frame(scenario = mm$model, method = "manifold (k = 5)",
                                 statistic = mm$metric, truth = NA_real_,
                                 estimate = mm$value, lower = mm$lower, upper = mm$upper))
  }
  out$kind <- ifelse(out$statistic == "auc_difference", "compare", "interval")
  out$warnings <- vapply(sub(" - .*", "", out$scenario), warnings_for, "",
                         caught = fit$caught, models = ms)
  cbind(data.frame(d = task$d, n_real = task$n_real, n_generated = task$n_gen,
                   draw = task$draw, group = task$group),
        out, seconds = (proc.time() - t0)[["elapsed"]],
        cpu = sum((proc.time() - t0)[c("user.self", "sys.self")]))
}

coverage_tasks <- function() {
  tasks <- list()
  for (st in cov_settings) for (i in seq_len(n_draws)) {
    d <- st[1]
    sz <- st[2:3]
    for (grp in c("gauss", "mixture")) {
      tasks[[length(tasks) + 1L]] <- list(d = d, n_real = sz[1], n_gen = sz[2],
                                          draw = i, group = grp,
                                          cost = sz[1] * sz[2] * (d + 64) * 40)
    }
  }
  tasks
}

# ---- running ---------------------------------------------------------------------

# Run the tasks in `cores` forked processes, one engine
# thread each, with a progress bar.
run_tasks <- function(tasks, fun, label) {
  if (!length(tasks)) return(NULL)
  # whole repeats (draws) first, the largest tasks of each first: a stopped
  # run's partial save holds complete repeats
  round_of <- vapply(tasks, function(t) as.numeric(if (is.null(t$rep)) t$draw else t$rep), 0)
  tasks <- tasks[order(round_of, -vapply(tasks, `[[`, 0, "cost"))]
  options(cli.progress_show_after = 0, cli.progress_clear = FALSE)
  bar <- cli::cli_progress_bar(label, total = length(tasks), .envir = environment(),
                               format = "{label} {cli::pb_bar} {cli::pb_current}/{cli::pb_total} | {cli::pb_elapsed} | ETA {cli::pb_eta}")
  results <- vector("list", length(tasks))
  failed <- function(res, i) {
    if (inherits(res, "try-error")) {
      stop("task ", paste(names(tasks[[i]]), unlist(tasks[[i]]), collapse = " "),
           " failed: ", res)
    }
    res
  }
  if (cores <= 1L) {
    prd_threads(2)
    for (i in seq_along(tasks)) {
      results[[i]] <- failed(try(fun(tasks[[i]])), i)
      cli::cli_progress_update(id = bar)
    }
  } else {
    running <- list()
    nxt <- 1L
    while (nxt <= length(tasks) || length(running)) {
      while (length(running) < cores && nxt <= length(tasks)) {
        i <- nxt
        job <- parallel::mcparallel({
          prd_threads(1)
          try(fun(tasks[[i]]))
        }, silent = FALSE)
        running[[as.character(job$pid)]] <- list(job = job, i = i)
        nxt <- nxt + 1L
      }
      done <- parallel::mccollect(lapply(running, `[[`, "job"), wait = FALSE,
                                  timeout = 1)
      for (pid in names(done)) {
        i <- running[[pid]]$i
        results[[i]] <- failed(done[[pid]], i)
        running[[pid]] <- NULL
        # what is done so far, for a run that is stopped: --save FILE gives
        # FILE-<label>.partial.rds
        if (nzchar(save_to)) {
          saveRDS(do.call(bind_fill, results), sub("\\.rds$", paste0("-", label, ".partial.rds"), save_to))
        }
        cli::cli_progress_update(id = bar)
      }
    }
  }
  cli::cli_progress_done(id = bar)
  # (groups with an oracle floor have its column, the others not)
  do.call(bind_fill, results)
}

if (!interactive() && sys.nframe() == 0L) {
  load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1])
  report_from <- opt("report", "")
  from_csv <- flag("from-csv")
  if (from_csv) {
    grid_res <- cov_res <- NULL
    run <- list(text = sprintf(paste(
      "`Rscript bench/validity.R --from-csv`: the tables of `%s` as shipped,",
      "whose rows come from the runs named below; %s."), csv_path,
      format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")), wall = 0)
  } else if (nzchar(report_from)) {
    saved <- lapply(strsplit(report_from, ",")[[1]], readRDS)
    grid_res <- do.call(bind_fill, lapply(saved, `[[`, "grid"))
    cov_res <- do.call(rbind, lapply(saved, `[[`, "coverage"))
    # runs of the parts side by side (concurrent processes): the wall time
    # is the longest, each part's its own
    runs <- lapply(saved, `[[`, "run")
    run <- runs[[1]]
    run$command <- paste(vapply(runs, `[[`, "", "command"), collapse = "` and `")
    run$wall <- max(vapply(runs, `[[`, 0, "wall"))
    run$wall_grid <- max(vapply(runs, `[[`, 0, "wall_grid"))
    run$wall_coverage <- max(vapply(runs, `[[`, 0, "wall_coverage"))
    run$truth_seconds <- max(vapply(runs, `[[`, 0, "truth_seconds"))
    run$load_min <- min(vapply(runs, `[[`, 0, "load_min"))
    run$load_max <- max(vapply(runs, `[[`, 0, "load_max"))
    run$concurrent <- length(runs)
    for (nm in c("draws", "replicates")) {
      has <- Filter(function(r) !is.null(r[[nm]]), runs)
      if (length(has)) run[[nm]] <- has[[length(has)]][[nm]]
    }
    n_reps <- run$replicates
  } else {
    t0 <- proc.time()[["elapsed"]]
    loads <- load1()
    truth_seconds <- sum(vapply(unique(c(dims, if ("coverage" %in% parts) cov_dims)),
                                function(d) attr(scenarios_at(d), "seconds"), 0))
    message(sprintf("Truths: %.0f s. Families: %s.", truth_seconds,
                    paste(families, collapse = ", ")))
    grid_res <- NULL
    cov_res <- NULL
    tg <- proc.time()[["elapsed"]]
    if ("grid" %in% parts) grid_res <- run_tasks(grid_tasks(), grid_task, "grid")
    loads <- c(loads, load1())
    tc <- proc.time()[["elapsed"]]
    if ("coverage" %in% parts) cov_res <- run_tasks(coverage_tasks(), coverage_task, "coverage")
    loads <- c(loads, load1())
    commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE),
                       error = function(e) "?")
    run <- list(command = paste(args, collapse = " "), date = format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"),
                version = as.character(utils::packageVersion("prdcurve")),
                commit = commit, cores = cores,
                wall = proc.time()[["elapsed"]] - t0, wall_grid = tc - tg,
                wall_coverage = proc.time()[["elapsed"]] - tc,
                truth_seconds = truth_seconds, load_min = min(loads), load_max = max(loads),
                families = families, repeats = repeats, sizes = sizes,
                draws = n_draws, replicates = n_reps)
    if (nzchar(save_to)) saveRDS(list(grid = grid_res, coverage = cov_res, run = run), save_to)
  }
  acc <- rk <- st <- cov <- cmpt <- pairs <- NULL
  if (!is.null(grid_res)) {
    acc <- accuracy_table(grid_res)
    pairs <- ranking_pairs(grid_res)
    rk <- ranking_table(pairs)
  }
  if (!is.null(cov_res)) {
    cov <- coverage_table(cov_res)
    cmpt <- compare_table(cov_res)
  }
  if (nzchar(opt("note", ""))) run$note <- opt("note", "")
  if (from_csv || (flag("merge") && flag("write"))) {
    # the shipped rows, this run's replacing those it has (csv_merge())
    if (!from_csv) {
      # written first and read back, so that every row has the CSV's digits
      utils::write.csv(csv_merge(utils::read.csv(csv_path, stringsAsFactors = FALSE),
                                 bind_fill(acc, rk, cov, cmpt)),
                       csv_con(csv_path), row.names = FALSE, na = "")
    }
    tabs <- csv_tables(utils::read.csv(csv_path, stringsAsFactors = FALSE))
    if (!from_csv) {
      # (the command without its file paths, then the merge's)
      shown <- trimws(gsub("--(csv|results|save|report) +[^ `]+|--(write|merge)", "",
                           run$command))
      run$text <- paste0(
        sprintf(paste0("`Rscript bench/validity.R %s --save FILE.rds`, %s, prdcurve %s ",
                       "(commit %s), then `--report FILE.rds --merge --write`: its rows "),
                gsub(" +", " ", shown), run$date, run$version, run$commit),
        "replace those of the same families, settings and scenarios in `", csv_path,
        "`, whose other rows come from the runs named below; the tables show the whole CSV.")
    }
    acc <- tabs$accuracy
    rk <- tabs$ranking
    cov <- tabs$coverage
    cmpt <- tabs$compare
  }
  if (!is.null(acc)) {
    n_sum <- if (5000 %in% acc$n_real) 5000 else max(acc$n_real)
    st <- summary_table(acc, rk, cov, n_sum)
    old <- options(width = 200)
    cat(sprintf("\nSummary per family and d (n = %s per set)\n", big(n_sum)))
    show <- st
    num <- vapply(show, is.double, logical(1))
    show[num] <- lapply(show[num], round, 3)
    print(show, row.names = FALSE)
    options(old)
    cat(targets_lines(acc, rk, cmpt, pairs), sep = "\n")
    print_oracle_errors(acc)
  }
  if (!is.null(cov)) {
    cat("\nCoverage of the 90% intervals (auc)\n")
    print(cov[cov$statistic == "auc", c("d", "n_real", "n_generated", "scenario", "method",
                                         "count", "coverage_own", "coverage_truth")],
          row.names = FALSE)
  }
  cat(sprintf("\nWall time %.1f minutes.\n", run$wall / 60))
  if (flag("write")) {
    # (with --merge or --from-csv the CSV is written above, or not at all)
    if (!from_csv && !flag("merge")) {
      utils::write.csv(bind_fill(acc, rk, cov, cmpt), csv_con(csv_path),
                       row.names = FALSE, na = "")
    }
    if (!is.null(acc)) {
      write_results(run, acc, rk, st, cov, cmpt)
      cat("Wrote ", if (!from_csv) paste0(csv_path, " and "), results_path, "\n",
          sep = "")
    } else {
      # (the results section is the grid's tables: a coverage part alone
      # leaves it as it is)
      cat("Wrote ", csv_path, " (no grid part: ", results_path,
          " left as it is)\n", sep = "")
    }
  }
}
