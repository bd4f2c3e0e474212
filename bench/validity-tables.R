# The validity suite's tables (bench/validity.R sources this file): the
# per-scenario accuracy, the rankings, the interval coverage and the paired
# comparisons of a run, the console summary and the section of
# bench/results.md that --write writes.

# ---- tables -----------------------------------------------------------------------

method_order <- function(m) {
  base <- c("knn", "kde", "ipr", "coverage", "linear", "quadratic", "stacked",
            "marginal", "smooth_marginal", "mixture", "tightest")
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
  out$target_met <- out$excess <= target_eps(out$d)
  if (all(is.na(out$oracle_error))) out$oracle_error <- out$oracle_abs_error <- NULL
  if (all(is.na(out$floor_error))) out$floor_error <- out$floor_abs_error <- NULL
  out[order(out$d, out$n_real, out$group, out$scenario, match(out$method, unique(out$method[method_order(out$method)]))), ]
}

# The tolerance of the target at dimension d (SPEC.md section 7, "Floors"),
# and the target in words: what accuracy_table()'s `target_met` computes
target_eps <- function(d) ifelse(d <= 512, 0.05, 0.10)
target_text <- function() {
  paste("the mean estimate over repeats within 0.05 at d <= 512 and within 0.10 above",
        "of the truth, or of the estimation floor where that is further (within that of",
        "the interval from the truth to the floor; of the truth alone where the scenario",
        "has no floor)")
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

# `old` (a table as written to the CSV) with `new`'s rows in place of
# those of the same kind, d, sizes, group, scenario, method and statistic,
# and `new`'s other rows after them; `old`'s columns first, in its order
# (so the CSV's diff shows what changed)
csv_merge <- function(old, new) {
  if (is.null(new)) return(old)
  keys <- c("kind", "d", "n_real", "n_generated", "group", "scenario", "method",
            "statistic")
  key <- function(t) {
    do.call(paste, c(lapply(keys, function(k) {
      v <- if (is.null(t[[k]])) rep(NA, nrow(t)) else t[[k]]
      ifelse(is.na(v) | v == "", "", as.character(v))
    }), sep = "\r"))
  }
  both <- bind_fill(old, new)
  # (text columns without a value are written "", as read.csv() reads them)
  txt <- vapply(both, is.character, logical(1))
  both[txt] <- lapply(both[txt], function(v) ifelse(is.na(v), "", v))
  n_old <- nrow(old)
  at <- match(key(old), key(new))
  rows <- ifelse(is.na(at), seq_len(n_old), n_old + at)
  both[c(rows, n_old + which(!key(new) %in% key(old))), , drop = FALSE]
}

# The CSV's rows as the tables of a run: list(accuracy, ranking, coverage,
# compare), each with the columns its kind has (NULL: no row of the kind)
csv_tables <- function(csv) {
  lapply(c(accuracy = "accuracy", ranking = "ranking", coverage = "coverage",
           compare = "compare"), function(k) {
    t <- csv[csv$kind == k, , drop = FALSE]
    if (!nrow(t)) return(NULL)
    keep <- vapply(t, function(v) !all(is.na(v) | (is.character(v) & v == "")),
                   logical(1))
    keep[c("kind", "warnings", "worst_pair")[c("kind", "warnings", "worst_pair") %in%
                                                names(keep)]] <- TRUE
    t <- t[keep]
    rownames(t) <- NULL
    t
  })
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
      sprintf("%s): %s;", if ("tightest" %in% meths) "tightest" else meths[1], target_text()),
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

# The summaries by n and d (one row per n and d the run has, one column
# per family): `cell(rows)` gives a family's entry from its rows of `tab`
# at that n and d; `extra(rows)` the columns before the families' (from
# every family's rows there).
md_by_n_d <- function(tab, cell, extra_head = NULL, extra = NULL) {
  meths <- unique(tab$method[method_order(tab$method)])
  keys <- unique(tab[c("n_real", "d")])
  keys <- keys[order(keys$n_real, keys$d), ]
  rows <- vapply(seq_len(nrow(keys)), function(i) {
    at <- tab[tab$n_real == keys$n_real[i] & tab$d == keys$d[i], ]
    cells <- vapply(meths, function(m) {
      r <- at[at$method == m, ]
      if (nrow(r)) cell(r) else ""
    }, "")
    paste0("| ", big(keys$n_real[i]), " | ", big(keys$d[i]), " | ",
           paste(c(if (!is.null(extra)) extra(at), cells), collapse = " | "), " |")
  }, "")
  c(paste0("| n | d | ", paste(c(extra_head, paste0("`", meths, "`")), collapse = " | "), " |"),
    paste0("|---:|---:|", paste(rep("---:", length(extra_head) + length(meths)),
                                collapse = "|"), "|"),
    rows)
}

# Mean (worst) over the scenarios of each family's mean |AUC error|
md_accuracy_n_d <- function(acc) {
  md_by_n_d(acc, cell = function(r) {
    sprintf("%s (%s)", fmt(mean(r$mean_abs_error)), fmt(max(r$mean_abs_error)))
  }, extra_head = "scenarios", extra = function(at) big(length(unique(at$scenario))))
}

# Scenarios meeting the target per family, beside the floors: the mean
# |AUC error| of the oracle and of the estimation floor over the scenarios
# that have one (how many in brackets)
md_target_n_d <- function(acc) {
  floor_cell <- function(at, col) {
    if (is.null(at[[col]])) return("")
    v <- unique(at[!is.na(at[[col]]), c("scenario", col)])[[col]]
    if (!length(v)) "" else sprintf("%s (%d)", fmt(mean(v)), length(v))
  }
  md_by_n_d(acc, cell = function(r) sprintf("%d/%d", sum(r$target_met), nrow(r)),
            extra_head = c("scenarios", "oracle", "floor"),
            extra = function(at) c(big(length(unique(at$scenario))),
                                   floor_cell(at, "oracle_abs_error"),
                                   floor_cell(at, "floor_abs_error")))
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

# The pooled calibration, one row per family, one column per statistic of
# the curves: pooled own-mean coverage (cells outside 85-95%; the lowest
# cell; the dispersion p); methods without an AUC (the manifold metrics)
# one line each
md_pooled <- function(pc) {
  rank <- match(pc$method, c("knn", "kde", "ipr", "coverage", "linear", "quadratic",
                             "stacked", "marginal", "smooth_marginal", "mixture",
                             "tightest"), nomatch = 99)
  pc <- pc[order(rank, pc$method), ]
  entry <- sprintf("%s (%d; %s; p %s)", pct(pc$pooled), pc$outside, pct(pc$lowest),
                   formatC(pc$p, format = "g", digits = 2))
  curve <- pc$method %in% pc$method[pc$statistic == "auc"]
  stats <- unique(pc$statistic[curve])
  stats <- stats[order(stats != "auc", stats)]
  meths <- unique(pc$method[curve])
  other <- unique(pc$method[!curve])
  c(if (length(meths)) c(
      paste0("| family | ", paste(stats, collapse = " | "), " |"),
      paste0("|---|", paste(rep("---:", length(stats)), collapse = "|"), "|"),
      vapply(meths, function(m) {
        paste0("| ", m, " | ", paste(vapply(stats, function(st) {
          k <- which(pc$method == m & pc$statistic == st)
          if (length(k)) entry[k] else ""
        }, ""), collapse = " | "), " |")
      }, "")),
    if (length(other)) c("", vapply(other, function(m) {
      k <- which(pc$method == m)
      paste0("`", m, "`: ", paste(sprintf("`%s` %s", pc$statistic[k], entry[k]),
                                   collapse = ", "), ".")
    }, "")))
}

# The paired comparisons, one row per setting, one column per family: the
# share of pairs whose sign agrees with the truth, the share whose interval
# excludes 0, and how many of those have the wrong sign
md_compare <- function(cmpt) {
  meths <- unique(cmpt$method[method_order(cmpt$method)])
  keys <- unique(cmpt[c("d", "n_real", "n_generated")])
  c(paste0("| d | n real : generated | pairs | ",
           paste(paste0("`", meths, "`"), collapse = " | "), " |"),
    paste0("|---:|---|---:|", paste(rep("---:", length(meths)), collapse = "|"), "|"),
    vapply(seq_len(nrow(keys)), function(i) {
      at <- cmpt[cmpt$d == keys$d[i] & cmpt$n_real == keys$n_real[i] &
                   cmpt$n_generated == keys$n_generated[i], ]
      cells <- vapply(meths, function(m) {
        r <- at[at$method == m, ]
        if (!nrow(r)) "" else sprintf("%s / %s / %d", pct(r$agree), pct(r$excluding_zero),
                                      r$wrong_when_excluding)
      }, "")
      paste0("| ", big(keys$d[i]), " | ", big(keys$n_real[i]), " : ", big(keys$n_generated[i]),
             " | ", big(max(at$count)), " | ", paste(cells, collapse = " | "), " |")
    }, ""))
}

# The targets of `tightest` at n = 5,000 (else the largest n): the scenarios
# meeting the target as the `target_met` column computes it (target_eps(),
# target_text()), in the bands of d of its two tolerances
# `pairs`: ranking_pairs() of this run's estimates (NULL when the tables
# come from the CSV, which keeps only the ranking table): the pairs whose
# true AUCs differ by at least 0.05, the scale at which a user ranks models
targets_lines <- function(acc, rk, cmpt, pairs = NULL) {
  if (!"tightest" %in% acc$method) {
    return("`tightest` was not part of this run: the targets of the combined curve are not measured here.")
  }
  n_sum <- if (5000 %in% acc$n_real) 5000 else max(acc$n_real)
  a <- acc[acc$method == "tightest" & acc$n_real == n_sum, ]
  band <- function(b, label) {
    if (!nrow(b)) return(NULL)
    w <- which.max(b$excess)
    miss <- b[!b$target_met, ]
    c(sprintf("- n = %s, %s: `tightest` meets the target in %d of %d scenarios (eps %s); largest excess %s (%s, d = %s).",
              big(n_sum), label, sum(b$target_met), nrow(b), fmt(target_eps(b$d[1]), 2),
              fmt(b$excess[w]), b$scenario[w], big(b$d[w])),
      sprintf("  Not met: %s.", if (nrow(miss)) {
        paste(sprintf("%s at d = %s (excess %s)", miss$scenario, big(miss$d), fmt(miss$excess)),
              collapse = ", ")
      } else "none"))
  }
  r <- rk[rk$method == "tightest", ]
  c(sprintf("- Target (the `target_met` column): %s.", target_text()),
    band(a[a$d <= 512, ], "d <= 512"),
    band(a[a$d > 512, ], "d > 512"),
    sprintf("- Families reporting an AUC above 0.5 where the truth is below 0.05, without the warning naming the model: %s.", {
      u <- acc[acc$false_high_unwarned > 0, ]
      if (nrow(u)) paste(unique(sprintf("%s (%s, d = %s, n = %s)", u$method, u$scenario, u$d, big(u$n_real))),
                         collapse = "; ") else "none"
    }),
    sprintf("- Ranking by `tightest` AUC: %s of %s pairs agree with the truth (target 100%%).",
            big(sum(round(r$agree * r$count))), big(sum(r$count))),
    if (!is.null(pairs) && any(pairs$method == "tightest")) {
      p <- pairs[pairs$method == "tightest" & abs(pairs$true_difference) >= 0.05, ]
      w <- p[!p$agree, ]
      sprintf("- Ranking, this run's pairs whose true AUCs differ by 0.05 or more: %s of %s agree%s.",
              big(sum(p$agree)), big(nrow(p)), if (nrow(w)) {
                paste0("; not: ", paste(sprintf("%s (d = %s, n = %s; true %s, estimated %s)",
                                                w$pair, big(w$d), big(w$n),
                                                fmt(w$true_difference), fmt(w$estimated_difference)),
                                        collapse = ", "))
              } else "")
    },
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
    if (!is.null(run$text)) run$text else sprintf(paste(
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
    "",
    results_n_d(acc, rk),
    if (!is.null(cov)) results_coverage(cov, cmpt))
  write_section(sec, path)
}

# The results.md summaries by n and d: accuracy, the target and the floors
# (every scenario's row is in the CSV, and the rankings by n and d in its
# `kind` ranking rows; at n = 5,000 they are the summary's column)
results_n_d <- function(acc, rk) {
  c("## Accuracy by n and d", "",
    paste0("Mean (worst) over the scenarios of each family's mean |AUC error| over ",
           "repeats; every scenario's estimate, truth and floors are in `", csv_path,
           "` (`kind` accuracy)."),
    "", md_accuracy_n_d(acc), "",
    "## The target and the floors by n and d", "",
    paste0("Per family, the scenarios meeting the target (the `target_met` column): ",
           target_text(), ". Oracle: the mean |AUC error| of the exact log-likelihood ",
           "ratio scored on the curve's evaluation rows with its thresholds; floor: that ",
           "of the scenario's true form fitted on the fit rows and scored likewise (in ",
           "brackets the scenarios that have one)."),
    "", md_target_n_d(acc), "")
}

# The results.md summaries of the coverage part: the pooled calibration
# and the paired comparisons (every cell's coverage is in the CSV)
results_coverage <- function(cov, cmpt) {
  draws <- max(cov$count)
  c("## What the 90% intervals cover", "",
    paste0(draws, " draws per setting, R = ", n_reps, " replicates (", n_reps %/% 2,
           " pairs of complementary halves), `summary(conf_level = 0.9)` and ",
           "`manifold_metrics(k = 5)`'s intervals, d = ",
           paste(big(sort(unique(cov$d))), collapse = " and "), ", ",
           length(unique(paste(cov$d, cov$n_real, cov$n_generated))), " settings of ",
           length(unique(cov$scenario)), " scenarios: the share of draws whose interval ",
           "contains the mean of the estimates over the draws (what the half-sample ",
           "intervals are built for), pooled over the cells (setting x scenario; cells ",
           "outside 85-95%; the lowest cell; the p of a dispersion test of the cells' ",
           "counts against Binomial(", draws, ", 0.9)). A calibrated interval pools near ",
           "90% with p not small; with ", draws, " draws a cell falls within about ",
           fmt(100 * (0.9 - 2 * sqrt(0.09 / draws)), 0), "-",
           fmt(100 * (0.9 + 2 * sqrt(0.09 / draws)), 0), "%. Every cell (own-mean and ",
           "truth coverage, width) is in `", csv_path, "` (`kind` coverage)."),
    "", md_pooled(pooled_coverage(cov)), "",
    if (!is.null(cmpt)) c(
      "## Paired comparisons (`prd_compare()`) against the true order", "",
      paste0("Pairs of models of one call whose true AUCs differ by more than 0.01, ",
             "every draw: the share whose estimated difference has the true sign / whose ",
             "paired interval excludes 0 / how many of those have the wrong sign."),
      "", md_compare(cmpt), ""))
}
