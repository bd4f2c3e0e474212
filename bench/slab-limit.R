# The limit of a slab's direction read from second moments: real N(0, I_d),
# generated the same law kept within the slab |u . x| <= c of mass 0.7 (the
# validity suite's trunc_slab_0.7, true AUC 0.700). The spectral family
# reads the slab from the generalised eigenvector v of least eigenvalue of
# the fit rows' covariances (S_Y v = l S_X v). Along a unit v with
# cos(v, u) = k the real rows project to N(0, 1) and the generated ones to
# k t + sqrt(1 - k^2) z (t the truncated normal, z standard normal), so the
# true curve of the best function of v . x is exact (prd_discrete() on a
# fine grid): no classifier that scores the rows through that one direction
# reads less. For each d and number of fit rows per set (2,500: one fit at
# 5,000 points per set, split 0.5; 4,500: the default's 10 folds; 19,000:
# 10 folds at 20,000 points per set), over seeds: the least eigenvalue, the
# cosine and that AUC; then the same of the direction the spectral family
# reads since its thinnest-slab search (fit_spectral() with the fit rows:
# spectral_refine(); `searched`), NA where it keeps no direction; and the
# same search given the real law's exact moments (mean 0, covariance I_d) in
# place of the real fit rows' (`P known`): what remains of its error there
# is the generated rows' own. `--shape half`: the suite's trunc_half_0.6
# instead, P within the half-space u . x >= qnorm(0.4) (true AUC 0.600; t
# the normal truncated below; the family's one-sided edge search).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/slab-limit.R [--dims 64,256,512,1024,2048]
#     [--fit-rows 2500,4500,19000] [--seeds 3] [--shape slab|half]
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
dims <- as.integer(strsplit(opt("dims", "64,256,512,1024,2048"), ",")[[1]])
fit_rows <- as.integer(strsplit(opt("fit-rows", "2500,4500,19000"), ",")[[1]])
seeds <- seq_len(as.integer(opt("seeds", "3")))

shape <- match.arg(opt("shape", "slab"), c("slab", "half"))
mass <- if (shape == "slab") 0.7 else 0.6
# the truncated normal's support [lo, hi] along u, and the sets' test
lo <- if (shape == "slab") -stats::qnorm((1 + mass) / 2) else stats::qnorm(1 - mass)
hi <- if (shape == "slab") -lo else 6
grid <- seq(-6, 6, by = 0.004)
t_grid <- seq(lo, hi, length.out = 1001)
t_weight <- stats::dnorm(t_grid) / sum(stats::dnorm(t_grid))
p_grid <- stats::dnorm(grid) / sum(stats::dnorm(grid))

# AUC of the true curve of the best function of v . x, cos(v, u) = k
direction_auc <- function(k) {
  s <- sqrt(max(0, 1 - k^2))
  q <- if (s < 1e-9) {
    ifelse(grid >= lo & grid <= hi, stats::dnorm(grid), 0)
  } else {
    drop(stats::dnorm(outer(grid, k * t_grid, `-`), sd = s) %*% t_weight)
  }
  summary(prd_discrete(p_grid, q / sum(q)))$auc
}

one <- function(d, n, seed) {
  set.seed(seed)
  u <- stats::rnorm(d)
  u <- u / sqrt(sum(u^2))
  real <- matrix(stats::rnorm(n * d), n, d)
  e <- matrix(stats::rnorm(n * d), n, d)
  t <- stats::qnorm(stats::runif(n, stats::pnorm(lo), if (shape == "slab") stats::pnorm(hi) else 1))
  gen <- e + outer(t - drop(e %*% u), u)
  rm(e)
  cv <- function(x) crossprod(sweep(x, 2, colMeans(x))) / nrow(x)
  R <- chol(cv(real))
  Sy <- cv(gen)
  f <- prdcurve:::fit_spectral(prdcurve:::cov_parts(real, gen),
                               fit_rows = function(j) list(X = if (j == 1L) real else gen))
  fe <- environment(f$score)
  along <- function(f) {
    if (f$settings$directions == 0L) return(NA_real_)
    fe <- environment(f$score)
    w <- fe$V[, which.min(fe$l)]
    abs(sum(w * u)) / sqrt(sum(w^2))
  }
  ks <- along(f)
  pk <- prdcurve:::cov_parts(real, gen)
  pk$Sx <- diag(d)
  pk$mx <- numeric(d)
  kk <- along(prdcurve:::fit_spectral(pk, fit_rows = function(j) list(X = if (j == 1L) real else gen)))
  rm(real, gen, f, fe, pk)
  M <- backsolve(R, t(backsolve(R, Sy, transpose = TRUE)), transpose = TRUE)
  e <- eigen((M + t(M)) / 2, symmetric = TRUE)
  v <- backsolve(R, e$vectors[, d])
  k <- abs(sum(v * u)) / sqrt(sum(v^2))
  c(l = e$values[d], cos = k, auc = direction_auc(k), cos_s = ks,
    auc_s = if (is.na(ks)) NA_real_ else direction_auc(ks), cos_k = kk,
    auc_k = if (is.na(kk)) NA_real_ else direction_auc(kk))
}

rows <- list()
for (d in dims) for (n in fit_rows) {
  if (n <= d) next
  r <- vapply(seeds, function(s) one(d, n, s), numeric(7))
  rows[[length(rows) + 1L]] <- data.frame(
    d = d, fit_rows = n, least_l = mean(r["l", ]), cos = mean(r["cos", ]),
    auc = mean(r["auc", ]), auc_min = min(r["auc", ]), auc_max = max(r["auc", ]),
    cos_s = mean(r["cos_s", ]), auc_s = mean(r["auc_s", ]),
    cos_k = mean(r["cos_k", ]), auc_k = mean(r["auc_k", ]))
  cat(sprintf("d = %d, %d fit rows: cos %.3f, AUC %.3f; searched cos %.3f, AUC %.3f; P known cos %.3f, AUC %.3f\n",
              d, n, mean(r["cos", ]), mean(r["auc", ]), mean(r["cos_s", ]),
              mean(r["auc_s", ]), mean(r["cos_k", ]), mean(r["auc_k", ])))
}
tab <- do.call(rbind, rows)
fmt <- function(x, k = 3) formatC(x, format = "f", digits = k)
cat(sprintf("\n| d | fit rows per set | least l | cos(v, u) | AUC along v (truth %.3f) | searched: cos | AUC | P known: cos | AUC |\n",
            mass), "|---:|---:|---:|---:|---|---:|---:|---:|---:|\n", sep = "")
for (i in seq_len(nrow(tab))) {
  with(tab[i, ], cat(sprintf("| %s | %s | %s | %s | %s (%s to %s) | %s | %s | %s | %s |\n",
    format(d, big.mark = ","), format(fit_rows, big.mark = ","), fmt(least_l),
    fmt(cos), fmt(auc), fmt(auc_min), fmt(auc_max), fmt(cos_s), fmt(auc_s),
    fmt(cos_k), fmt(auc_k))))
}
