# The default curve "tightest": how its choice among the families reads on
# (a) the digits class-subset experiment (inst/scripts/demo-digits.R:
# P = half of digits 0-4, Q = half of digits 0 to q-1, q = 1, 3, 5, 7, 9;
# the true curve a rectangle) over the seeds, against knn, each other
# default family alone, the best family at each q (known only with the
# truth) and the lowest of the families' curves at each lambda (a choice
# with no noise); and (b) Gaussian
# cases with exact or Monte Carlo truths (validity_scenarios(): a mean
# shift along e_1 of 1 and the dispersion changes 1.2 and 0.8 at d = 64,
# n = 5,000 per set; Q = P at n = 2,000 per set, true AUC 1, where each
# default family is also read on its own: the area a choice among them
# can reach), and the AUC the estimator gives a score that knows nothing of
# the data (independent standard normal scores of the same evaluation rows,
# 1,000 a set): what any family with continuous scores reads at Q = P
# before its own noise; (c) Q = P at 40 to 2,000 points per set with and
# without the ceiling rule (tightest_ceiling_auc()), and two near copies.
#
# Usage, from the package root:
#   Rscript bench/tightest-choice.R [pkgdir] [--seeds N] [--others]
# (pkgdir: the package source to load, default "."; pass another checkout
# to measure another version of the code the same way; N: the digits
# experiment's seeds, 2026 then 1 to N - 1, default 30: over the demo's 5
# the spread of an AUC across seeds is itself uncertain by about a third,
# so (a) also prints the first 5 seeds' numbers and a bootstrap interval,
# over the seeds, of the default's mean IoU and mean spread less knn's;
# --others: (a) also reads the families that left the default in 0.6.0,
# kde, ipr, linear and marginal, each alone, in calls of their own with
# knn on the same seeds).

args <- commandArgs(trailingOnly = TRUE)
si <- match("--seeds", args)
n_seeds <- if (is.na(si)) 30L else as.integer(args[si + 1L])
if (!is.na(si)) args <- args[-c(si, si + 1L)]
others <- "--others" %in% args
args <- setdiff(args, "--others")
pkg <- if (length(args) >= 1L) args[1] else "."
suppressMessages(pkgload::load_all(pkg, quiet = TRUE))
quiet <- function(expr) suppressWarnings(suppressMessages(expr))

# ---- (a) digits -------------------------------------------------------------
px <- as.matrix(digits[, 1:64])
lab <- digits$digit
seeds <- c(2026, seq_len(n_seeds - 1L))
rows <- NULL
fams <- tightest_default()
# the lowest of the default families' curves at each lambda, raised to a
# PR curve (pr_majorant()): what choosing the tightest family at every
# lambda with no noise in the choice would read
lowest_curve <- function(cv) {
  inner <- cv$lambda > 0 & is.finite(cv$lambda)
  one <- cv[cv$method == "knn", ]
  P <- vapply(fams, function(f) cv$precision[cv$method == f], numeric(nrow(one)))
  ends <- function(col) min(vapply(fams, function(f) max(cv[[col]][cv$method == f]), 1))
  pr <- pr_majorant(apply(P, 1, min)[inner[cv$method == "knn"]],
                    one$lambda[inner[cv$method == "knn"]],
                    ends("precision"), ends("recall"))
  one$method <- "lowest"
  i <- which(inner[cv$method == "knn"])
  one$precision[i] <- pr$alpha
  one$recall[i] <- pmin(pr$alpha / one$lambda[i], 1)
  one$precision[one$lambda == Inf] <- pr$max_precision
  one$recall[one$lambda == 0] <- pr$max_recall
  one
}
for (s in seeds) {
  set.seed(s)
  # (the families read alone in the same call: the default's and knn's
  # curves are those of a call with them alone)
  res <- quiet(prd_class_subset(px, lab, q = c(1, 3, 5, 7, 9),
                                method = c("tightest", fams)))
  r <- as.data.frame(res$summary)[, c("q", "method", "auc", "iou")]
  for (qq in unique(r$q)) {
    cq <- res$curves[res$curves$q == qq, ]
    low <- lowest_curve(cq)
    r <- rbind(r, data.frame(q = qq, method = "lowest",
                             auc = summary(low)$auc,
                             iou = unname(prd_iou(low, cq[cq$method == "truth", ]))))
  }
  r$seed <- s
  rows <- rbind(rows, r)
}
# mean IoU and mean (over q) sd of the AUC across the seeds `ss`, per method
digits_stats <- function(ss) {
  r <- do.call(rbind, lapply(seq_along(ss), function(i) {
    x <- rows[rows$seed == ss[i], ]
    x$seed <- i
    x
  }))
  c(iou = tapply(r$iou, r$method, mean),
    sd = colMeans(tapply(r$auc, list(r$q, r$method), stats::sd)))
}
iou_q <- tapply(rows$iou, list(rows$q, rows$method), mean)
auc_sd <- tapply(rows$auc, list(rows$q, rows$method), stats::sd)
cat("(a) digits class-subset experiment,", length(seeds), "seeds (2026, 1 to",
    length(seeds) - 1L, ")\n\n")
tab <- data.frame(q = as.numeric(rownames(iou_q)),
                  iou_tightest = iou_q[, "tightest"], iou_knn = iou_q[, "knn"],
                  auc_sd_tightest = auc_sd[, "tightest"],
                  auc_sd_knn = auc_sd[, "knn"])
print(format(tab, digits = 3, nsmall = 3), row.names = FALSE)
# each default family alone, the best of them at each q (known only with
# the truth) and the lowest curve (lowest_curve())
cat("\nmean IoU of each default family alone, of the best family at each q",
    "(chosen with the truth), and of the lowest of their curves:\n\n")
fam_iou <- iou_q[, c(fams, "lowest"), drop = FALSE]
fam_tab <- data.frame(q = as.numeric(rownames(iou_q)), round(fam_iou, 3),
                      best = apply(iou_q[, fams], 1, function(v) fams[which.max(v)]),
                      best_iou = round(apply(iou_q[, fams], 1, max), 3),
                      check.names = FALSE)
print(fam_tab, row.names = FALSE)
cat(sprintf("mean over q: %s; best family at each q %.3f\n",
            paste(sprintf("%s %.3f", colnames(fam_iou), colMeans(fam_iou)),
                  collapse = ", "),
            mean(apply(iou_q[, fams], 1, max))))
all_s <- digits_stats(seeds)
five <- digits_stats(utils::head(seeds, 5))
cat(sprintf("\nmean IoU: tightest %.3f, knn %.3f; mean sd of AUC over seeds: tightest %.4f, knn %.4f\n",
            all_s[["iou.tightest"]], all_s[["iou.knn"]],
            all_s[["sd.tightest"]], all_s[["sd.knn"]]))
cat(sprintf("the first 5 seeds (the demo's): IoU %.3f / %.3f, sd %.4f / %.4f\n",
            five[["iou.tightest"]], five[["iou.knn"]], five[["sd.tightest"]],
            five[["sd.knn"]]))
set.seed(11)
boot <- replicate(1000, {
  b <- digits_stats(sample(seeds, replace = TRUE))
  c(b[["iou.tightest"]] - b[["iou.knn"]], b[["sd.tightest"]] - b[["sd.knn"]])
})
cat(sprintf("tightest - knn, 90%% bootstrap interval over the seeds: IoU %+.4f [%+.4f, %+.4f], sd %+.4f [%+.4f, %+.4f]\n\n",
            all_s[["iou.tightest"]] - all_s[["iou.knn"]],
            stats::quantile(boot[1, ], 0.05), stats::quantile(boot[1, ], 0.95),
            all_s[["sd.tightest"]] - all_s[["sd.knn"]],
            stats::quantile(boot[2, ], 0.05), stats::quantile(boot[2, ], 0.95)))
if (others) {
  # the families that left the default, each alone, beside knn in the same
  # calls: whether any reads closer to the true rectangles than knn
  oth <- c("knn", "kde", "ipr", "linear", "marginal")
  orows <- NULL
  for (s in seeds) {
    set.seed(s)
    res <- quiet(prd_class_subset(px, lab, q = c(1, 3, 5, 7, 9), method = oth))
    r <- as.data.frame(res$summary)[, c("q", "method", "iou")]
    r$seed <- s
    orows <- rbind(orows, r)
  }
  o_q <- tapply(orows$iou, list(orows$q, orows$method), mean)[, oth]
  cat("mean IoU of the families that left the default (calls of their own with knn):\n\n")
  print(data.frame(q = as.numeric(rownames(o_q)), round(o_q, 3)), row.names = FALSE)
  f5 <- orows[orows$seed %in% utils::head(seeds, 5), ]
  o5 <- colMeans(tapply(f5$iou, list(f5$q, f5$method), mean))[oth]
  cat(sprintf("mean over q: %s; the first 5 seeds: %s\n\n",
              paste(sprintf("%s %.3f", oth, colMeans(o_q)), collapse = ", "),
              paste(sprintf("%s %.3f", oth, o5), collapse = ", ")))
}

# ---- (b) Gaussian cases -------------------------------------------------------
sc <- validity_scenarios(64, which = c("same", "shift_axis_1", "var_0.8",
                                       "var_1.2"),
                         truth_n = 2e5, angles = 201)
g <- sc[[1]]
cases <- list(list(model = "shift_axis_1", n = 5000),
              list(model = "var_1.2", n = 5000),
              list(model = "var_0.8", n = 5000),
              list(model = "same", n = 2000))
out <- NULL
fam_qp <- NULL
for (cs in cases) {
  m <- g$models[[cs$model]]
  for (s in 1:3) {
    set.seed(100 + s)
    x <- g$real(cs$n)
    y <- m$sample(cs$n)
    same <- cs$model == "same"
    meth <- c("tightest", if (same) tightest_default() else "knn")
    cv <- quiet(prd_curve(x, y, method = meth, angles = 201))
    a <- summary(cv)
    out <- rbind(out, data.frame(case = cs$model, n = cs$n, seed = s,
                                 truth = m$truth_auc,
                                 tightest = a$auc[a$method == "tightest"],
                                 knn = a$auc[a$method == "knn"]))
    if (same) fam_qp <- rbind(fam_qp, stats::setNames(a$auc, a$method))
  }
}
cat("(b) Gaussian cases at d = 64: AUC, mean of 3 draws (truth from validity_scenarios())\n\n")
agg <- stats::aggregate(cbind(truth, tightest, knn) ~ case + n, out, mean)
agg$tightest_error <- agg$tightest - agg$truth
print(format(agg, digits = 3, nsmall = 3), row.names = FALSE)
cat("\nQ = P, 2,000 points per set: each family's own AUC, mean of 3 draws\n\n")
print(round(colMeans(fam_qp), 4))
# a score independent of the data on the default's evaluation rows at Q = P
# (split 0.5: 1,000 a set): the minimum over thresholds alone reads below 1
lam <- lambda_grid(201)
ne <- 1000L
set.seed(7)
blind <- replicate(200, envelope_auc(lam, curve_from_scores(stats::rnorm(ne),
                                                            stats::rnorm(ne),
                                                            lam)))
cat(sprintf("\nQ = P, a data-blind continuous score, %s evaluation rows a set (200 draws): AUC mean %.4f, sd %.4f, share of draws at or above 0.995: %.2f\n",
            format(ne, big.mark = ","), mean(blind), stats::sd(blind),
            mean(blind >= 0.995)))

# ---- (c) Q = P by sample size, with and without the ceiling rule ---------------
# Two samples of N(0, I) at d = 8 and 64, 40 to 2,000 points per set
# (split 0.5), 3 draws each: the default's AUC (true AUC 1) with the
# ceiling rule (tightest_ceiling_margin) and without it (margin 0, the
# same draws and halves), and the share of calls the rule took; and
# shifts of 0.2 and 0.3 along e_1 at d = 8, 2,000 points per set
# (prd_truth_gaussian()): near copies, which the rule may read as 1 (by
# at most its margin) or leave alone
ns_ <- asNamespace("prdcurve")
margin <- ns_$tightest_ceiling_margin
with_margin <- function(m, expr) {
  unlockBinding("tightest_ceiling_margin", ns_)
  assign("tightest_ceiling_margin", m, envir = ns_)
  on.exit({
    assign("tightest_ceiling_margin", margin, envir = ns_)
    lockBinding("tightest_ceiling_margin", ns_)
  })
  # (the envelope's default argument is read when it is called)
  force(expr)
}
qp <- NULL
for (d in c(8, 64)) for (n in c(40, 200, 400, 1000, 2000)) for (s in 1:3) {
  one <- function(m) {
    set.seed(300 + s)
    x <- matrix(stats::rnorm(n * d), n)
    y <- matrix(stats::rnorm(n * d), n)
    with_margin(m, {
      cv <- quiet(prd_curve(x, y, angles = 201))
      c(auc = summary(cv)$auc,
        ceiling = prd_curve_info(cv)$details[[1]]$choice == "ceiling")
    })
  }
  a <- one(margin)
  b <- one(0)
  qp <- rbind(qp, data.frame(d = d, n = n, seed = s, with_rule = a[["auc"]],
                             without = b[["auc"]], took = a[["ceiling"]]))
}
cat("\n(c) Q = P, d = 8 and 64: the default's AUC, mean of 3 draws, with the ceiling rule and without (margin 0)\n\n")
agg <- stats::aggregate(cbind(with_rule, without, took) ~ d + n, qp, mean)
agg[3:5] <- lapply(agg[3:5], function(v) sprintf("%.3f", v))
print(agg, row.names = FALSE)
for (delta in c(0.2, 0.3)) {
  sh <- NULL
  for (s in 1:3) {
    set.seed(400 + s)
    x <- matrix(stats::rnorm(2000 * 8), 2000)
    y <- matrix(stats::rnorm(2000 * 8), 2000)
    y[, 1] <- y[, 1] + delta
    cv <- quiet(prd_curve(x, y, angles = 201))
    sh <- rbind(sh, data.frame(auc = summary(cv)$auc,
                               choice = prd_curve_info(cv)$details[[1]]$choice))
  }
  tr <- summary(prd_truth_gaussian(rep(0, 8), c(delta, rep(0, 7)),
                                   angles = 201))$auc
  cat(sprintf("\nshift %s along e_1, d = 8, 2,000 points per set (true AUC %.3f): AUC %s; choices %s\n",
              delta, tr, paste(sprintf("%.3f", sh$auc), collapse = ", "),
              paste(sh$choice, collapse = ", ")))
}
