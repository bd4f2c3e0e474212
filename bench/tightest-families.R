# Which families the default curve "tightest" needs: each call's family
# envelopes (on both halves of the evaluation rows and on every row) are
# saved once, and the choice (tightest_envelope(), the same halves,
# bands and penalty) is made again with every family and without some.
# Prints mean |AUC error| against the truth per suite (digits: the mean
# IoU with the true rectangle, 5 seeds x q = 1, 3, 5, 7, 9) and each
# family's own.
#
# Suites: digits (inst/scripts/demo-digits.R's experiment) and Gaussian
# scenarios (validity_scenarios(): same, shifts, dispersions) at d = 16,
# 64, 256 and 300-2,000 points per set, 2 draws each; with --all also the
# kinds (clusters, heavy tails, manifold, truncation; d = 64, 256, 2,000
# per set), gauss/mixture/aniso at d = 1,024 and 2,048 (5,000 per set)
# and the tabular scenarios (d = 16, 64, 3,000 per set), and the Student t
# model (5 df) against its real Gaussian at d = 2,048, 5,000 per set: 3
# draws of this script's own (student) and the validity suite's 3
# (student_validity).
#
# Usage (package root): Rscript bench/tightest-families.R [--all]
#   [--drop kde,ipr,linear,marginal]   (the families left out in the
#   second column; default: those four, the families that left the default
#   in 0.6.0)
#   [--bands 3,4,6,8,12]   also the choice with the families kept and these
#   numbers of bands (tightest_bands): the digits' IoU and the spread of
#   their AUC across seeds (mean over q of the sd over the 5 seeds), each
#   suite's mean |AUC error|
#   [--noise current,floor_median,sat_median,...]   also the choice with
#   these variants of the noise rule (noise_variants below), crossed with
#   the --bands counts (default 4, 6, 8): the digits' IoU and spread, Q = P
#   (mean AUC of `same` at 2,000 points per set; q_eq_p_all: at 300-2,000),
#   each suite's mean |AUC error| and, with --all, the Student t model at
#   d = 2,048 (mean and worst AUC)
#   [--halvings 2,4,8,16]   also the choice made on that many random
#   halvings of the evaluation rows (the call's own first), the readings
#   averaged (and their median): digits IoU and spread, each suite's error
#   [--save FILE.rds] keep the calls' envelopes; [--load FILE.rds] choose
#   again from kept envelopes instead of making the calls (seconds)
# About 2 minutes; with --all about 15 on 2 cores.

args <- commandArgs(trailingOnly = TRUE)
source("bench/common.R")
all_suites <- "--all" %in% args
di <- match("--drop", args)
drop <- if (is.na(di)) c("kde", "ipr", "linear", "marginal") else
  strsplit(args[di + 1L], ",", fixed = TRUE)[[1]]
bi <- match("--bands", args)
band_counts <- if (is.na(bi)) integer() else
  as.integer(strsplit(args[bi + 1L], ",", fixed = TRUE)[[1]])
opt <- function(flag) {
  i <- match(flag, args)
  if (is.na(i)) NULL else args[i + 1L]
}
noise_names <- if (is.null(opt("--noise"))) character() else
  strsplit(opt("--noise"), ",", fixed = TRUE)[[1]]
save_file <- opt("--save")
load_file <- opt("--load")
suppressMessages(pkgload::load_all(".", quiet = TRUE))
quiet <- function(expr) suppressWarnings(suppressMessages(expr))
every <- c("knn", "kde", "ipr", "coverage", "linear", "quadratic", "stacked",
           "marginal", "smooth_marginal")

# ---- the calls' envelopes, saved from tightest_envelope()'s arguments ------
ns <- asNamespace("prdcurve")
saved <- new.env()
choose <- keep_envelopes(ns, saved)
families_of <- function(x) {
  if (is.data.frame(x)) x <- encode_categories(x)
  c(every, intersect(c("logit", "interaction"), tightest_families(x)))
}
one_call <- function(x, y, truth) {
  quiet(prd_curve(x, y, method = "tightest", families = families_of(x),
                  angles = 201))
  c(saved$last, list(truth = truth))
}

px <- as.matrix(digits[, 1:64])
if (!is.null(load_file)) {
  calls <- readRDS(load_file)
} else {
calls <- list(digits = list(), gauss = list())
for (s in c(2026, 1:4)) {
  set.seed(s)
  # the experiment's own sets and truths, one q at a time
  res <- quiet(prd_class_subset(px, digits$digit, q = c(1, 3, 5, 7, 9),
                                method = "tightest",
                                families = every, angles = 201))
  cv <- as.data.frame(res$curves)
  for (qq in c(1, 3, 5, 7, 9)) {
    tr <- cv[cv$q == qq & cv$method == "truth" & is.finite(cv$lambda) &
               cv$lambda > 0, ]
    calls$digits[[length(calls$digits) + 1L]] <- list(q = qq, truth = tr$precision)
  }
}
# (prd_class_subset() calls tightest once per q: redo them to save each)
k <- 0L
for (s in c(2026, 1:4)) {
  set.seed(s)
  classes <- sort(unique(digits$digit))
  half <- integer(nrow(px))
  for (cl in classes) {
    rows <- which(digits$digit == cl)
    rows <- rows[sample.int(length(rows))]
    half[rows] <- rep_len(1:2, length(rows))
  }
  p_rows <- which(half == 1L & digits$digit %in% classes[1:5])
  for (qq in c(1, 3, 5, 7, 9)) {
    k <- k + 1L
    q_rows <- which(half == 2L & digits$digit %in% classes[seq_len(qq)])
    tr <- calls$digits[[k]]$truth
    calls$digits[[k]] <- c(one_call(px[p_rows, ], px[q_rows, ], NA),
                           list(q = qq, truth_precision = tr))
  }
}
add_group <- function(suite, g, n, seeds, d) {
  for (mn in names(g$models)) for (s in seeds) {
    m <- g$models[[mn]]
    set.seed(1000 * s + n + d)
    x <- g$real(n)
    y <- m$sample(n)
    calls[[suite]][[length(calls[[suite]]) + 1L]] <<-
      c(one_call(x, y, m$truth_auc), list(model = mn, n = n, d = d))
  }
}
for (d in c(16, 64, 256)) {
  g <- validity_scenarios(d, which = c("same", "shift_axis_1", "var_0.8",
                                       "var_1.2", "shift_random_0.5"),
                          truth_n = 2e5, angles = 201)[[1]]
  for (n in c(300, 600, 1000, 2000)) add_group("gauss", g, n, 1:2, d)
}
if (all_suites) {
  calls$kinds <- calls$high <- calls$tabular <- list()
  for (d in c(64, 256)) for (kind in validity_kinds) {
    add_group("kinds", validity_kind_group(kind, d, truth_n = 2e5, angles = 201),
              2000, 1:2, d)
  }
  for (d in c(1024, 2048)) {
    for (g in validity_scenarios(d, which = c("same", "shift_axis_1",
                                              "shift_random_0.5", "var_0.8",
                                              "var_1.2", "aniso_1", "aniso_2",
                                              "drop_1"),
                                 truth_n = 2e5, angles = 201)) {
      add_group("high", g, 5000, 1, d)
    }
  }
  for (d in c(16, 64)) {
    for (g in validity_scenarios(d, which = c("category_drift",
                                              "category_drift_sex",
                                              "category_dropped",
                                              "category_mean",
                                              "category_scale"),
                                 truth_n = 2e5, angles = 201)) {
      add_group("tabular", g, 3000, 1:2, d)
    }
  }
  # the validity scenario of a multivariate Student t (5 df) against its
  # real Gaussian at d = 2,048, where saturated families once won bands
  calls$student <- list()
  add_group("student", validity_scenarios(2048, which = "student_t",
                                          truth_n = 2e5, angles = 201)[[1]],
            5000, 1:3, 2048)
}
}
# The same model in the validity suite's own draws (bench/validity.R's
# grid_task(): its seeds, the gauss group's eleven models drawn and
# estimated in one call with knn beside, n = 5,000, repeats 1-3), where
# 8 bands once read 0.19 in 2 of 3 draws. (Captured also after --load when
# the kept calls lack it.)
if (all_suites && is.null(calls$student_validity)) {
  calls$student_validity <- list()
  sc <- validity_scenarios(2048, truth_n = 2e5, angles = 201)
  g <- sc[[match("gauss", vapply(sc, `[[`, "", "name"))]]
  # every tightest_envelope() call of a prd_curve() call, in order
  all_calls <- list()
  assign("tightest_envelope", function(envs, halves_real, halves_gen, lambda, ...) {
    e <- lapply(1:2, function(h) {
      lapply(envs, function(f) f(halves_real[[h]], halves_gen[[h]]))
    })
    all_calls[[length(all_calls) + 1L]] <<- list(
      e = e, full = lapply(envs, function(f) f()), lambda = lambda,
      nr = lengths(halves_real), ng = lengths(halves_gen))
    choose(envs, halves_real, halves_gen, lambda, ...)
  }, envir = ns)
  for (r in 1:3) {
    # bench/validity.R's seed_of(2048, 5000, r, "gauss")
    set.seed(as.integer(5 * 1e6 + 5000 * 7 + r * 101 + 1))
    dr <- validity_draw(g, 5000)
    all_calls <- list()
    cv <- quiet(prd_curve(dr$real, dr$gens, method = c("tightest", "knn")))
    i <- match("student_t", names(dr$gens))
    stopifnot(length(all_calls) == length(dr$gens))
    cl <- all_calls[[i]]
    # (the kept envelopes are the student_t model's: its knn AUC agrees)
    s <- summary(cv)
    stopifnot(abs(envelope_auc(cl$lambda, cl$full$knn) -
                    s$auc[s$model == "student_t" & s$method == "knn"]) < 1e-6)
    calls$student_validity[[r]] <- c(cl, list(
      truth = g$models$student_t$truth_auc, model = "student_t", n = 5000,
      d = 2048, auc = s$auc[s$model == "student_t" & s$method == "tightest"]))
    rm(dr, cv)
  }
}
if (!is.null(save_file)) saveRDS(calls, save_file)

# ---- the choice again, on the saved envelopes --------------------------------
iou_grid <- function(a, b, lambda) {
  ra <- a^2 + pmin(a / lambda, 1)^2
  rb <- b^2 + pmin(b / lambda, 1)^2
  sum(pmin(ra, rb)) / sum(pmax(ra, rb))
}
# tightest_envelope() with a hook on its noise rule: variant(noise, area,
# lambda, band, bands) gives each family's noise in each band (bands x
# families, before the penalty) from the current rule's noise and the
# families' areas on each half (a list of two bands x families matrices)
choose_v <- choose
formals(choose_v) <- c(formals(choose), alist(variant = NULL))
local({
  b <- body(choose_v)
  i <- which(vapply(as.list(b), function(x) {
    identical(deparse(x),
              "noise <- noise * rep(tightest_noise_weights(fam, penalty), each = bands)")
  }, logical(1)))
  stopifnot(length(i) == 1L)
  hook <- quote(if (!is.null(variant) && length(fam) > 1L) {
    noise <- variant(noise, area = area, lambda = lambda, band = band,
                     bands = bands)
  })
  body(choose_v) <<- as.call(append(as.list(b), hook, after = i - 1L))
})
# a family is saturated in a band when its area there is at least `t` of
# the ceiling's (alpha = min(1, lambda): P = Q) on both halves
saturated <- function(area, lambda, band, bands, t) {
  a <- pmin(1, lambda)
  rho2 <- a^2 + pmin(a / lambda, 1)^2
  ceil <- vapply(seq_len(bands), function(b) sum(rho2[band == b]), 0) *
    diff(atan(lambda))[1] / 2
  area[[1]] >= t * ceil & area[[2]] >= t * ceil
}
band_median <- function(noise) {
  matrix(apply(noise, 1L, stats::median), nrow(noise), ncol(noise))
}
floor_sat <- function(t, floor_of = band_median) {
  function(noise, area, lambda, band, bands) {
    sat <- saturated(area, lambda, band, bands, t)
    fl <- floor_of(noise)
    noise[sat] <- pmax(noise[sat], fl[sat])
    noise
  }
}
# each variant: a hook on the noise (NULL: none) and the saturation share
# of tightest_envelope() (NULL: the package's, tightest_saturation; Inf: no
# family is saturated, the rule before it)
noise_variants <- list(
  current = list(),
  none = list(saturation = Inf),
  # (a) the band's median noise as every family's floor
  floor_median = list(hook = function(noise, ...) {
    pmax(noise, band_median(noise))
  }, saturation = Inf),
  # (b) that floor for the families saturated on both halves only
  sat_median = list(hook = floor_sat(0.98), saturation = Inf),
  sat_median_95 = list(hook = floor_sat(0.95), saturation = Inf),
  sat_median_995 = list(hook = floor_sat(0.995), saturation = Inf),
  # (c) a saturated family takes the largest noise of the band's
  # unsaturated families (none: the noises stay, as at Q = P): the
  # package's rule since 0.6.x, at shares 0.98 (current), 0.95, 0.995
  sat_max_95 = list(saturation = 0.95),
  sat_max_995 = list(saturation = 0.995),
  # (c) the same with the largest noise of all the band's families
  sat_max_all = list(hook = floor_sat(0.98, function(noise) {
    matrix(apply(noise, 1L, max), nrow(noise), ncol(noise))
  }), saturation = Inf),
  # (c) a saturated family loses the band unless every family is saturated
  sat_out = list(hook = function(noise, area, lambda, band, bands) {
    sat <- saturated(area, lambda, band, bands, 0.98)
    out <- sat & !apply(sat, 1L, all)
    noise[out] <- 1e6
    noise
  }, saturation = Inf),
  # (c) the lower quartile as every family's floor
  floor_q25 = list(hook = function(noise, ...) {
    pmax(noise, matrix(apply(noise, 1L, stats::quantile, 0.25), nrow(noise),
                       ncol(noise)))
  }, saturation = Inf),
  # (d) the ceiling alpha = min(1, lambda) (a constant score: the curve of
  # P = Q, above every true curve) as one more family, without noise: a
  # band reads a family only where its penalised area is below the
  # ceiling's, i.e. its gap to P = Q exceeds its noise
  ceiling = list(ceiling = TRUE, hook = function(noise, ...) {
    noise[, ncol(noise)] <- 0
    noise
  }))
rechoose <- function(cl, fams, bands = ns$tightest_bands, variant = NULL) {
  fams <- intersect(c(fams, "logit", "interaction"), names(cl$full))
  envs <- lapply(stats::setNames(fams, fams), function(f) {
    function(ir, ig) if (missing(ir)) cl$full[[f]] else cl$e[[attr(ir, "h")]][[f]]
  })
  if (isTRUE(variant$ceiling)) {
    a <- pmin(1, cl$lambda)
    top <- list(precision = a, recall = pmin(a / cl$lambda, 1),
                max_precision = 1, max_recall = 1)
    envs$ceiling <- function(ir, ig) top
  }
  hr <- lapply(1:2, function(h) structure(seq_len(cl$nr[h]), h = h))
  hg <- lapply(1:2, function(h) structure(seq_len(cl$ng[h]), h = h))
  choose_v(envs, hr, hg, cl$lambda, bands = bands, variant = variant$hook,
           saturation = if (is.null(variant$saturation)) ns$tightest_saturation else
             variant$saturation)
}
score <- function(suite, fams, bands = ns$tightest_bands, sd_digits = FALSE,
                  variant = NULL, auc = FALSE) {
  v <- vapply(calls[[suite]], function(cl) {
    # (the validity suite's calls hold the default families only)
    if (length(fams) == 1L && is.null(cl$full[[fams]])) return(NA_real_)
    r <- if (length(fams) == 1L) cl$full[[fams]] else
      rechoose(cl, fams, bands, variant)
    if (sd_digits || auc) return(envelope_auc(cl$lambda, r))
    if (suite == "digits") {
      iou_grid(pmin(r$precision, 1), cl$truth_precision, cl$lambda)
    } else {
      abs(envelope_auc(cl$lambda, r) - cl$truth)
    }
  }, numeric(1))
  if (auc) return(v)
  if (sd_digits) {
    q <- vapply(calls[[suite]], `[[`, 0, "q")
    return(mean(tapply(v, q, stats::sd)))
  }
  mean(v)
}
sets <- c(list("every family" = every,
               "without dropped" = setdiff(every, drop)),
          as.list(stats::setNames(every, every)))
tab <- do.call(rbind, lapply(names(calls), function(su) {
  data.frame(suite = su, calls = length(calls[[su]]),
             t(vapply(sets, function(f) score(su, f), numeric(1))),
             check.names = FALSE)
}))
cat("Mean |AUC error| (digits: mean IoU with the true rectangle); dropped:",
    paste(drop, collapse = ", "), "\n\n")
print(format(tab, digits = 3), row.names = FALSE)

if (length(band_counts)) {
  kept <- setdiff(every, drop)
  bt <- do.call(rbind, lapply(band_counts, function(b) {
    data.frame(bands = b, digits_iou = score("digits", kept, b),
               digits_auc_sd = score("digits", kept, b, sd_digits = TRUE),
               t(vapply(setdiff(names(calls), "digits"), function(su) {
                 score(su, kept, b)
               }, numeric(1))), check.names = FALSE)
  }))
  cat("\nThe families kept, by the number of bands (knn: digits IoU",
      format(score("digits", "knn"), digits = 3), ", sd of AUC",
      format(score("digits", "knn", sd_digits = TRUE), digits = 3), ")\n\n")
  print(format(bt, digits = 3), row.names = FALSE)
}

if (length(noise_names)) {
  kept <- setdiff(every, drop)
  bc <- if (length(band_counts)) band_counts else c(4L, 6L, 8L)
  qp_all <- vapply(calls$gauss, function(cl) identical(cl$model, "same"),
                   logical(1))
  qp <- qp_all & vapply(calls$gauss, function(cl) identical(cl$n, 2000),
                        logical(1))
  vt <- do.call(rbind, lapply(noise_names, function(nm) {
    do.call(rbind, lapply(bc, function(b) {
      va <- noise_variants[[nm]]
      row <- data.frame(noise = nm, bands = b,
                        digits_iou = score("digits", kept, b, variant = va),
                        digits_sd = score("digits", kept, b, sd_digits = TRUE,
                                          variant = va))
      if (any(qp)) {
        a <- score("gauss", kept, b, variant = va, auc = TRUE)
        row$q_eq_p <- mean(a[qp])
        row$q_eq_p_all <- mean(a[qp_all]) # (300-2,000 points per set)
      }
      students <- c("student", "student_validity")
      for (su in setdiff(names(calls), c("digits", students))) {
        row[[su]] <- score(su, kept, b, variant = va)
      }
      for (su in intersect(students, names(calls))) {
        a <- score(su, kept, b, variant = va, auc = TRUE)
        tr <- calls[[su]][[1]]$truth
        row[[paste0(su, "_mean")]] <- mean(a)
        row[[paste0(su, "_worst")]] <- a[which.max(abs(a - tr))]
      }
      row
    }))
  }))
  cat("\nThe families kept, by the noise rule and the number of bands (knn:",
      "digits IoU", format(score("digits", "knn"), digits = 3), ", sd",
      format(score("digits", "knn", sd_digits = TRUE), digits = 3))
  if (!is.null(calls$student)) {
    cat("; Student t truth", format(calls$student[[1]]$truth, digits = 3),
        ", AUCs by draw with the current rule at 4, 8 bands:",
        format(score("student", kept, 4L, auc = TRUE), digits = 3), "/",
        format(score("student", kept, 8L, auc = TRUE), digits = 3))
  }
  if (!is.null(calls$student_validity)) {
    cat("; in the validity suite's draws, 4, 8 bands:",
        format(score("student_validity", kept, 4L, auc = TRUE), digits = 3), "/",
        format(score("student_validity", kept, 8L, auc = TRUE), digits = 3))
  }
  cat(")\n\n")
  print(format(vt, digits = 4), row.names = FALSE)
}

halvings <- if (is.null(opt("--halvings"))) integer() else
  as.integer(strsplit(opt("--halvings"), ",", fixed = TRUE)[[1]])
if (length(halvings)) {
  kept <- setdiff(every, drop)
  # the choice on R halvings (the call's own and R - 1 more, R's RNG), the
  # readings combined by `how`, then raised to a PR curve
  bagged <- function(cl, R, how) {
    envs <- cl$envs[intersect(c(kept, "logit", "interaction"), names(cl$envs))]
    set.seed(99)
    outs <- lapply(seq_len(R), function(r) {
      hr <- if (r == 1L) cl$hr else ns$random_halves(sum(cl$nr))
      hg <- if (r == 1L) cl$hg else ns$random_halves(sum(cl$ng))
      ns$tightest_envelope(envs, hr, hg, cl$lambda)
    })
    a <- apply(sapply(outs, `[[`, "precision"), 1L, how)
    ns$pr_majorant(pmin(a, 1), cl$lambda,
                   mean(sapply(outs, `[[`, "max_precision")),
                   mean(sapply(outs, `[[`, "max_recall")))
  }
  ht <- do.call(rbind, lapply(halvings, function(R) {
    do.call(rbind, lapply(c("mean", "median"), function(how) {
      v <- lapply(names(calls), function(su) {
        vapply(calls[[su]], function(cl) {
          if (is.null(cl$envs)) return(NA_real_) # (kept before --halvings)
          r <- bagged(cl, R, match.fun(how))
          auc <- envelope_auc(cl$lambda, list(
            precision = r$alpha, recall = pmin(r$alpha / cl$lambda, 1),
            max_precision = r$max_precision, max_recall = r$max_recall))
          if (su == "digits") {
            c(iou_grid(pmin(r$alpha, 1), cl$truth_precision, cl$lambda), auc)
          } else c(abs(auc - cl$truth), auc)
        }, numeric(2))
      })
      names(v) <- names(calls)
      q <- vapply(calls$digits, `[[`, 0, "q")
      data.frame(halvings = R, readings = how,
                 digits_iou = mean(v$digits[1, ]),
                 digits_sd = mean(tapply(v$digits[2, ], q, stats::sd)),
                 t(vapply(setdiff(names(calls), "digits"), function(su) {
                   mean(v[[su]][1, ])
                 }, numeric(1))), check.names = FALSE)
    }))
  }))
  cat("\nThe choice on several halvings (1: the package's choice)\n\n")
  print(format(ht, digits = 4), row.names = FALSE)
}
