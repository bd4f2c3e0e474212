# The validity suite's tables (bench/validity.R sources this file): the
# per-scenario accuracy, the rankings, the interval coverage and the paired
# comparisons of a run, the console summary and the section of
# bench/results.md that --write writes.

# ---- tables -----------------------------------------------------------------------

method_order <- function(m) {
  base <- c("knn", "kde", "ipr", "coverage", "linear", "quadratic", "stacked",
            "marginal", "tightest")
  order(match(m, base, nomatch = 99), m)
}

accuracy_table <- function(res) {
  keys <- unique(res[c("d", "n", "group", "scenario", "method")])
  out <- do.call(rbind, lapply(split(res, list(res$d, res$n, res$scenario, res$method),
                                     drop = TRUE), function(g) {
    err <- g$auc - g$truth_auc
    data.frame(kind = "accuracy", d = g$d[1], n_real = g$n[1],
               n_generated = g$n[1], group = g$group[1],
               scenario = g$scenario[1], method = g$method[1],
               statistic = "auc", count = nrow(g), truth = g$truth_auc[1],
               estimate = mean(g$auc), sd = if (nrow(g) > 1) stats::sd(g$auc) else NA,
               mean_abs_error = mean(abs(err)), max_abs_error = max(abs(err)),
               iou = mean(g$iou),
               # estimated AUC > 0.5 where the truth is below 0.05
               false_high = mean(g$truth_auc < 0.05 & g$auc > 0.5),
               false_high_unwarned = mean(g$truth_auc < 0.05 & g$auc > 0.5 &
                                            !grepl("family_disagreement", g$warnings)),
               warned = mean(grepl("family_disagreement", g$warnings)),
               warnings = paste(unique(unlist(strsplit(g$warnings, ";"))), collapse = ";"),
               # the oracle floor (NA where the scenario has none)
               oracle_error = if (is.null(g$oracle_auc)) NA_real_ else
                 mean(g$oracle_auc - g$truth_auc),
               oracle_abs_error = if (is.null(g$oracle_auc)) NA_real_ else
                 mean(abs(g$oracle_auc - g$truth_auc)),
               # the estimation floor (the true form fitted on the fit rows)
               floor_error = if (is.null(g$floor_auc)) NA_real_ else
                 mean(g$floor_auc - g$truth_auc),
               floor_abs_error = if (is.null(g$floor_auc)) NA_real_ else
                 mean(abs(g$floor_auc - g$truth_auc)))
  }))
  # the target (SPEC.md section 7, "Floors"): within eps of the truth, or of
  # the estimation floor where that floor is further; eps 0.05 at d <= 512,
  # 0.10 above. `excess`: the mean estimate's distance beyond the interval
  # from the truth to the floor (the truth alone without a floor)
  fl <- ifelse(is.na(out$floor_error), out$truth, out$truth + out$floor_error)
  out$excess <- pmax(pmin(out$truth, fl) - out$estimate, out$estimate - pmax(out$truth, fl), 0)
  out$target_met <- out$excess <= ifelse(out$d <= 512, 0.05, 0.10)
  if (all(is.na(out$oracle_error))) out$oracle_error <- out$oracle_abs_error <- NULL
  if (all(is.na(out$floor_error))) out$floor_error <- out$floor_abs_error <- NULL
  out[order(out$d, out$n_real, out$group, out$scenario, match(out$method, unique(out$method[method_order(out$method)]))), ]
}

# every pair of models in the same call with true AUCs more than `tol` apart
ranking_pairs <- function(res, tol = 0.01) {
  do.call(rbind, lapply(split(res, list(res$d, res$n, res$rep, res$group, res$method),
                              drop = TRUE), function(g) {
    if (nrow(g) < 2) return(NULL)
    ij <- utils::combn(nrow(g), 2)
    dt <- g$truth_auc[ij[2, ]] - g$truth_auc[ij[1, ]]
    de <- g$auc[ij[2, ]] - g$auc[ij[1, ]]
    keep <- abs(dt) > tol
    if (!any(keep)) return(NULL)
    data.frame(d = g$d[1], n = g$n[1], rep = g$rep[1], method = g$method[1],
               pair = paste(g$scenario[ij[2, keep]], "-", g$scenario[ij[1, keep]]),
               true_difference = dt[keep], estimated_difference = de[keep],
               agree = sign(de[keep]) == sign(dt[keep]))
  }))
}

ranking_table <- function(pairs) {
  do.call(rbind, lapply(split(pairs, list(pairs$d, pairs$n, pairs$method), drop = TRUE),
                        function(g) {
    data.frame(kind = "ranking", d = g$d[1], n_real = g$n[1], n_generated = g$n[1],
               group = NA, scenario = NA, method = g$method[1],
               statistic = "auc", count = nrow(g), agree = mean(g$agree),
               worst_pair = if (any(!g$agree)) {
                 w <- g[!g$agree, ]
                 w$pair[which.max(abs(w$true_difference))]
               } else NA_character_)
  }))
}

coverage_table <- function(cres) {
  cres <- cres[cres$kind == "interval", ]
  do.call(rbind, lapply(split(cres, list(cres$d, cres$n_real, cres$n_generated,
                                         cres$scenario, cres$method, cres$statistic),
                              drop = TRUE), function(g) {
    own <- mean(g$estimate)
    # 1e-6: the trapezoid AUC of a curve at 1 is 1 + 1e-6 and its interval
    # is clamped to [.., 1]
    tol <- 1e-6
    hit_own <- g$lower - tol <= own & own <= g$upper + tol
    hit_truth <- if (is.na(g$truth[1])) NA else
      g$lower - tol <= g$truth & g$truth <= g$upper + tol
    data.frame(kind = "coverage", d = g$d[1], n_real = g$n_real[1],
               n_generated = g$n_generated[1], group = g$group[1],
               scenario = g$scenario[1], method = g$method[1],
               statistic = g$statistic[1], count = nrow(g), truth = g$truth[1],
               estimate = own, sd = stats::sd(g$estimate),
               coverage_own = mean(hit_own, na.rm = TRUE),
               coverage_truth = mean(hit_truth, na.rm = TRUE),
               width = mean(g$upper - g$lower, na.rm = TRUE))
  }))
}

compare_table <- function(cres) {
  cres <- cres[cres$kind == "compare", ]
  do.call(rbind, lapply(split(cres, list(cres$d, cres$n_real, cres$n_generated,
                                         cres$method), drop = TRUE), function(g) {
    g <- g[abs(g$truth) > 0.01, ]
    excl <- g$lower > 0 | g$upper < 0
    data.frame(kind = "compare", d = g$d[1], n_real = g$n_real[1],
               n_generated = g$n_generated[1], group = NA, scenario = NA,
               method = g$method[1], statistic = "auc_difference",
               count = nrow(g), agree = mean(sign(g$estimate) == sign(g$truth)),
               excluding_zero = mean(excl),
               agree_when_excluding = if (any(excl))
                 mean(sign(g$estimate[excl]) == sign(g$truth[excl])) else NA,
               wrong_when_excluding = sum(excl & sign(g$estimate) != sign(g$truth)))
  }))
}

bind_fill <- function(...) {
  tabs <- Filter(Negate(is.null), list(...))
  cols <- unique(unlist(lapply(tabs, names)))
  do.call(rbind, lapply(tabs, function(t) {
    for (cn in setdiff(cols, names(t))) t[[cn]] <- NA
    t[cols]
  }))
}

# The summary per family and d (n = 5,000 if run, else the largest n): mean
# |AUC error| over the scenarios, IoU, ranking agreement, coverage.
summary_table <- function(acc, rk, cov, n) {
  a <- acc[acc$n_real == n, ]
  out <- do.call(rbind, lapply(split(a, list(a$d, a$method), drop = TRUE), function(g) {
    r <- rk[rk$d == g$d[1] & rk$n_real == n & rk$method == g$method[1], ]
    cv <- if (!is.null(cov)) cov[cov$d == g$d[1] & cov$method == g$method[1] &
                                   cov$statistic == "auc" &
                                   cov$n_real == cov$n_generated, ]
    data.frame(d = g$d[1], method = g$method[1],
               mean_abs_error = mean(g$mean_abs_error),
               max_abs_error = max(g$mean_abs_error),
               worst = g$scenario[which.max(g$mean_abs_error)],
               iou = mean(g$iou),
               ranking = if (nrow(r)) r$agree else NA,
               false_high = sum(g$false_high > 0),
               false_high_unwarned = sum(g$false_high_unwarned > 0),
               coverage_own = if (length(cv) && nrow(cv)) mean(cv$coverage_own) else NA,
               coverage_truth = if (length(cv) && nrow(cv)) mean(cv$coverage_truth) else NA,
               oracle = if (is.null(g$oracle_abs_error)) NA else
                 mean(g$oracle_abs_error, na.rm = TRUE),
               floor = if (is.null(g$floor_abs_error)) NA else
                 mean(g$floor_abs_error, na.rm = TRUE),
               # scenarios meeting the target (within eps of the truth or of the floor)
               target_met = sprintf("%d/%d", sum(g$target_met), nrow(g)))
  }))
  if (all(is.na(out$oracle))) out$oracle <- NULL
  if (all(is.na(out$floor))) out$floor <- NULL
  out[order(out$d, match(out$method, unique(out$method[method_order(out$method)]))), ]
}

# The signed AUC errors (mean estimate - truth) of every family per
# scenario, beside the oracle floor's (oracle - truth), for the scenarios
# that have one: the families' part of an error is estimate - oracle.
print_oracle_errors <- function(acc) {
  if (is.null(acc$oracle_error)) return(invisible())
  a <- acc[!is.na(acc$oracle_error), ]
  meths <- unique(a$method[method_order(a$method)])
  keys <- unique(a[c("d", "n_real", "group", "scenario")])
  wide <- do.call(rbind, lapply(seq_len(nrow(keys)), function(i) {
    r <- a[a$d == keys$d[i] & a$n_real == keys$n_real[i] &
             a$group == keys$group[i] & a$scenario == keys$scenario[i], ]
    err <- as.list(round(r$estimate[match(meths, r$method)] - r$truth[1], 3))
    names(err) <- meths
    # the default's target (or the first family's when it did not run)
    own <- r[match(if ("tightest" %in% meths) "tightest" else meths[1], r$method), ]
    data.frame(keys[i, ], truth = round(r$truth[1], 3), err,
               oracle = round(r$oracle_error[1], 3),
               floor = if (is.null(r$floor_error)) NA else round(r$floor_error[1], 3),
               excess = round(own$excess, 3), target = ifelse(own$target_met, "met", "NOT met"),
               check.names = FALSE)
  }))
  old <- options(width = 200)
  on.exit(options(old))
  cat("\nAUC error (mean estimate - truth) per scenario; oracle: the exact log-likelihood ratio",
      "\nscored on the same evaluation rows with the same thresholds (oracle - truth); floor: the",
      "\nscenario's true form fitted on the fit rows, scored likewise (floor - truth); target (of",
      sprintf("%s): within 0.05 (d <= 512; 0.10 above) of the truth or of the floor where further;",
              if ("tightest" %in% meths) "tightest" else meths[1]),
      "\nexcess: the distance beyond the interval from the truth to the floor\n")
  print(wide, row.names = FALSE)
  invisible(wide)
}

fmt <- function(x, digits = 3) ifelse(is.na(x), "", formatC(x, format = "f", digits = digits))
pct <- function(x) ifelse(is.na(x), "", paste0(formatC(100 * x, format = "f", digits = 0), "%"))
big <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)

md_summary <- function(st) {
  c("| d | family | mean abs AUC error | worst scenario (abs error) | IoU | ranking agreement | AUC > 0.5 where truth < 0.05 (without the warning) | 90% interval covers own mean | covers truth |",
    "|---:|---|---:|---|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s | %s | %s (%s) | %s | %s | %s (%s) | %s | %s |", big(st$d), st$method,
            fmt(st$mean_abs_error), st$worst, fmt(st$max_abs_error), fmt(st$iou),
            pct(st$ranking), st$false_high, st$false_high_unwarned,
            pct(st$coverage_own), pct(st$coverage_truth)))
}

md_scenarios <- function(acc, d, n) {
  a <- acc[acc$d == d & acc$n_real == n, ]
  meths <- unique(a$method[method_order(a$method)])
  sc <- unique(a$scenario)
  # the floors' mean AUC where the run has them (oracle, estimation floor)
  fl <- intersect(c("oracle_error", "floor_error"), names(a))
  c(paste0("| scenario | truth | ", paste(c(meths, sub("_error", "", fl)), collapse = " | "), " |"),
    paste0("|---|---:|", paste(rep("---:", length(meths) + length(fl)), collapse = "|"), "|"),
    vapply(sc, function(s) {
      r <- a[a$scenario == s, ]
      paste0("| ", s, " | ", fmt(r$truth[1]), " | ",
             paste(c(fmt(r$estimate[match(meths, r$method)]),
                     fmt(vapply(fl, function(f) r$truth[1] + r[[f]][1], 0))), collapse = " | "), " |")
    }, ""))
}

md_coverage <- function(cov) {
  c("| d | n real : generated | scenario | family | statistic | draws | own mean | truth | covers own mean | covers truth | mean width |",
    "|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|",
    sprintf("| %s | %s : %s | %s | %s | %s | %d | %s | %s | %s%s | %s | %s |",
            big(cov$d), big(cov$n_real), big(cov$n_generated), cov$scenario,
            cov$method, cov$statistic, cov$count, fmt(cov$estimate), fmt(cov$truth),
            pct(cov$coverage_own),
            ifelse(cov$coverage_own < 0.85 | cov$coverage_own > 0.95, " *", ""),
            pct(cov$coverage_truth), fmt(cov$width)))
}

# Pooled calibration per family and statistic: the own-mean coverage over
# every cell (setting x scenario) and a dispersion test of the cells'
# counts against Binomial(draws, 0.9) (chi-square with one degree of
# freedom per cell): a calibrated interval has pooled coverage near 90%
# and no spread beyond the binomial noise of its cells.
pooled_coverage <- function(cov) {
  cov$hits <- round(cov$coverage_own * cov$count)
  do.call(rbind, lapply(split(cov, list(cov$method, cov$statistic), drop = TRUE),
                        function(z) {
    chi <- sum((z$hits - 0.9 * z$count)^2 / (0.09 * z$count))
    w <- which.min(z$coverage_own)
    data.frame(method = z$method[1], statistic = z$statistic[1], cells = nrow(z),
               pooled = sum(z$hits) / sum(z$count),
               outside = sum(z$coverage_own < 0.85 | z$coverage_own > 0.95),
               lowest = z$coverage_own[w],
               lowest_at = sprintf("%s, d = %s, %s : %s", z$scenario[w], big(z$d[w]),
                                   big(z$n_real[w]), big(z$n_generated[w])),
               chi2 = chi, p = stats::pchisq(chi, nrow(z), lower.tail = FALSE))
  }))
}

md_pooled <- function(pc) {
  rank <- match(pc$method, c("knn", "kde", "ipr", "coverage", "linear", "quadratic",
                             "stacked", "marginal", "tightest"), nomatch = 99)
  pc <- pc[order(pc$statistic != "auc", pc$statistic, rank, pc$method), ]
  c("| family | statistic | cells | pooled own-mean coverage | cells outside 85-95% | lowest cell | dispersion chi^2 (p) |",
    "|---|---|---:|---:|---:|---|---:|",
    sprintf("| %s | %s | %d | %s | %d | %s (%s) | %s (%s) |", pc$method, pc$statistic,
            pc$cells, pct(pc$pooled), pc$outside, pct(pc$lowest), pc$lowest_at,
            fmt(pc$chi2, 1), formatC(pc$p, format = "g", digits = 2)))
}

targets_lines <- function(acc, rk, cmpt) {
  if (!"tightest" %in% acc$method) {
    return("`tightest` was not part of this run: the targets of the combined curve are not measured here.")
  }
  a <- acc[acc$method == "tightest" & acc$n_real == 5000, ]
  lo <- a[a$d <= 256, ]
  hi <- a[a$d >= 1024, ]
  r <- rk[rk$method == "tightest", ]
  c(if (nrow(lo)) sprintf("- n = 5,000, d <= 256: largest mean |AUC error| of `tightest` %s (%s, d = %s); target 0.05: %s.",
            fmt(max(lo$mean_abs_error)), lo$scenario[which.max(lo$mean_abs_error)],
            lo$d[which.max(lo$mean_abs_error)],
            if (max(lo$mean_abs_error) <= 0.05) "met" else "not met"),
    if (nrow(lo)) sprintf("  Scenarios above 0.05: %s.", {
      b <- lo[lo$mean_abs_error > 0.05, ]
      if (nrow(b)) paste(sprintf("%s at d = %s (%s)", b$scenario, b$d, fmt(b$mean_abs_error)),
                         collapse = ", ") else "none"
    }),
    if (nrow(hi)) sprintf("- n = 5,000, d >= 1,024: largest %s (%s, d = %s); target 0.15: %s.",
                          fmt(max(hi$mean_abs_error)), hi$scenario[which.max(hi$mean_abs_error)],
                          hi$d[which.max(hi$mean_abs_error)],
                          if (max(hi$mean_abs_error) <= 0.15) "met" else "not met"),
    if (nrow(hi)) sprintf("  Scenarios above 0.15: %s.", {
      b <- hi[hi$mean_abs_error > 0.15, ]
      if (nrow(b)) paste(sprintf("%s at d = %s (%s)", b$scenario, b$d, fmt(b$mean_abs_error)),
                         collapse = ", ") else "none"
    }),
    sprintf("- Families reporting an AUC above 0.5 where the truth is below 0.05, without the warning naming the model: %s.", {
      u <- acc[acc$false_high_unwarned > 0, ]
      if (nrow(u)) paste(unique(sprintf("%s (%s, d = %s, n = %s)", u$method, u$scenario, u$d, big(u$n_real))),
                         collapse = "; ") else "none"
    }),
    sprintf("- Ranking by `tightest` AUC: %s of %s pairs agree with the truth (target 100%%).",
            big(sum(round(r$agree * r$count))), big(sum(r$count))),
    if (!is.null(cmpt) && any(cmpt$method == "tightest")) {
      cc <- cmpt[cmpt$method == "tightest", ]
      sprintf("- `prd_compare()` on `tightest`, coverage part: %s of pairs with an interval excluding 0 have the wrong sign.",
              big(sum(cc$wrong_when_excluding)))
    })
}

write_results <- function(run, acc, rk, st, cov, cmpt, path = results_path) {
  n_sum <- if (5000 %in% acc$n_real) 5000 else max(acc$n_real)
  grid_line <- paste(vapply(split(acc, acc$n_real), function(a) {
    sprintf("n = %s at d = %s (%s repeats)", big(a$n_real[1]),
            paste(big(sort(unique(a$d))), collapse = ", "), big(max(a$count)))
  }, ""), collapse = "; ")
  sec <- c(
    "# Validity: the curves against the true curve",
    "",
    sprintf(paste(
      "`Rscript bench/validity.R %s`, %s, prdcurve %s (commit %s), %s; %d worker",
      "processes with one engine and one BLAS thread each. Wall time %s minutes",
      "(grid %s, coverage %s; truths %s s), load average %s-%s during the run",
      "(the machine was shared: a quiet machine is faster)."),
      run$command, run$date, run$version, run$commit, R.version.string, run$cores,
      fmt(run$wall / 60, 1), fmt(run$wall_grid / 60, 1), fmt(run$wall_coverage / 60, 1),
      fmt(run$truth_seconds, 0), fmt(run$load_min, 1), fmt(run$load_max, 1)),
    if (!is.null(run$note)) c("", run$note),
    "",
    paste0("Grid: ", grid_line, "; families ", paste0("`", unique(acc$method), "`", collapse = ", "),
           ". ", length(unique(acc$scenario)), " scenarios in three calls per ",
           "(d, n, repeat), one per real distribution (`prdcurve:::validity_scenarios()`). ",
           "Defaults (the fitted families cross-fitted in 10 folds, unless the command ",
           "sets `--folds`), split 0.5, no replicates. AUC error = estimate - truth; ",
           "ranking: every pair of models of one call whose true AUCs differ by more ",
           "than 0.01 agrees when the estimated AUCs are in the true order."),
    "",
    sprintf("## Summary per family and d (n = %s per set)", big(n_sum)),
    "",
    paste0("Mean and worst (over scenarios) of the mean |AUC error| over repeats; mean IoU with ",
           "the true curve; share of ranked pairs in the true order; number of scenarios ",
           "where an estimate exceeded 0.5 with a truth below 0.05 (in brackets: in some repeat without a ",
           "`prdcurve_warning_family_disagreement` naming the model); coverage of the 90% ",
           "interval of the AUC (coverage part, equal sizes, mean over its scenarios; ",
           "blank where the coverage part did not run at this d)."),
    "",
    md_summary(st),
    "",
    targets_lines(acc, rk, cmpt),
    "")
  for (d in sort(unique(acc$d))) {
    sec <- c(sec, sprintf("## Mean AUC per scenario, d = %s, n = %s", big(d), big(n_sum)), "",
             md_scenarios(acc, d, n_sum), "")
  }
  if (!is.null(cov)) {
    cc <- cov[cov$method != "manifold (k = 5)" | TRUE, ]
    sec <- c(sec, "## What the 90% intervals cover", "",
      paste0(max(cov$count), " draws per setting, R = ", n_reps, " replicates (",
             n_reps %/% 2, " pairs of complementary halves), `summary(conf_level = 0.9)` ",
             "and `manifold_metrics(k = 5)`'s intervals. `covers own mean`: share of draws ",
             "whose interval contains the mean of the estimates over the draws (what the ",
             "half-sample intervals are built for); `covers truth`: share containing the ",
             "true value. `*`: own-mean coverage outside 85-95% (with ", max(cov$count),
             " draws a calibrated interval falls within about ",
             fmt(100 * (0.9 - 2 * sqrt(0.09 / max(cov$count))), 0), "-",
             fmt(100 * (0.9 + 2 * sqrt(0.09 / max(cov$count))), 0), "%)."),
      "", md_coverage(cc), "",
      "Pooled over the cells above (a calibrated 90% interval: pooled coverage near 90%, dispersion p not small; with the cells' draws about 1 cell in 6 falls outside 85-95% by chance):",
      "", md_pooled(pooled_coverage(cc)), "")
    if (!is.null(cmpt)) {
      sec <- c(sec, "## Paired comparisons (`prd_compare()`) against the true order", "",
        "Pairs of models of one call whose true AUCs differ by more than 0.01, every draw.",
        "",
        "| d | n real : generated | family | pairs | sign agrees | interval excludes 0 | wrong sign when excluding 0 |",
        "|---:|---|---|---:|---:|---:|---:|",
        sprintf("| %s | %s : %s | %s | %d | %s | %s | %d |", big(cmpt$d), big(cmpt$n_real),
                big(cmpt$n_generated), cmpt$method, cmpt$count, pct(cmpt$agree),
                pct(cmpt$excluding_zero), cmpt$wrong_when_excluding), "")
    }
  }
  write_section(sec, path)
}
