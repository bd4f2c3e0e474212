# A discriminative family for clustered data, tried before building it:
# kernel logistic regression (Zhu and Hastie 2005) on a Nystrom basis
# (Williams and Seeger 2001), against the default curve, the quadratic
# family, the exact log-likelihood ratio on the same evaluation rows (the
# oracle floor) and the truth, on the validity suite's clustered groups
# (R/validity-kinds.R: 16 overlapping classes, isotropic or low rank plus
# diagonal; drop, reweight, widen).
#
# The family: `landmarks` rows drawn from the pooled fit rows, a Gaussian
# kernel exp(-|x - l|^2 / s2) with s2 = h times the median squared distance
# between landmarks (`bandwidths`: the h tried), features K(x, L) K_LL^-1/2,
# and a ridge-penalised logistic regression on them (IRLS), its penalty
# chosen by held-out deviance on two inner halves of the fit rows. It is
# fitted once on the fit rows prd_curve() draws (split 0.5) and scored on
# its evaluation rows (curve_eval_rows()): the default, `quadratic` (10
# folds), the oracle and the kernel family read the same rows.
#
# Usage (package root): Rscript bench/kernel-logit.R [--dims 256,512]
#   [--kinds clusters,clusters_lowrank] [--n 5000] [--landmarks 512]
#   [--bandwidths 0.25,1] [--truth-n 2e5] [--seed 11] [--installed]
#   [--write]   (the table into bench/results.md)

source("bench/common.R")
args <- commandArgs(trailingOnly = TRUE)
bench_package(args)
num <- function(x) as.numeric(strsplit(as.character(x), ",")[[1]])
dims <- num(opt("dims", "256,512"))
kinds <- strsplit(opt("kinds", "clusters,clusters_lowrank"), ",")[[1]]
n <- as.integer(opt("n", 5000))
n_land <- as.integer(opt("landmarks", 512))
hs <- num(opt("bandwidths", "0.25,1"))
truth_n <- as.numeric(opt("truth-n", 2e5))
seed <- as.integer(opt("seed", 11))

auc_of <- function(cv) summary(cv)$auc[1]
# squared distances of rows to the landmarks: the mixture family's
# (mixture_dist2(), src/mixture.c)

# ridge logistic regression by IRLS (intercept not penalised); y in {0, 1}
ridge_logit <- function(X, y, lam, iter = 50L) {
  X <- cbind(1, X)
  pen <- c(0, rep(lam * nrow(X), ncol(X) - 1L))
  beta <- numeric(ncol(X))
  for (it in seq_len(iter)) {
    eta <- drop(X %*% beta)
    mu <- 1 / (1 + exp(-eta))
    w <- pmax(mu * (1 - mu), 1e-10)
    A <- crossprod(X, X * w)
    diag(A) <- diag(A) + pen
    new <- drop(solve(A, crossprod(X, w * eta + (y - mu))))
    done <- max(abs(new - beta)) < 1e-8
    beta <- new
    if (done) break
  }
  beta
}

# the Nystrom map of the pooled fit rows Z: a function of rows
nystrom_map <- function(Z, h, m) {
  lm <- Z[sample.int(nrow(Z), min(m, nrow(Z))), , drop = FALSE]
  D <- mixture_dist2(lm, lm)
  s2 <- h * stats::median(D[upper.tri(D)])
  e <- eigen(exp(-D / s2), symmetric = TRUE)
  keep <- e$values > 1e-8 * e$values[1]
  M <- e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), sum(keep))
  function(A) exp(-mixture_dist2(A, lm) / s2) %*% M
}

# the fitted family: a score (log p / q up to a constant) of rows
kernel_logit_fit <- function(Xf, Yf, h, m, lams = 10^seq(-7, -1)) {
  f <- nystrom_map(rbind(Xf, Yf), h, m)
  P <- rbind(f(Xf), f(Yf))
  y <- rep(1:0, c(nrow(Xf), nrow(Yf)))
  half <- sample(rep(1:2, length.out = length(y)))
  dev <- vapply(lams, function(l) {
    sum(vapply(1:2, function(k) {
      b <- ridge_logit(P[half != k, , drop = FALSE], y[half != k], l)
      eta <- drop(cbind(1, P[half == k, , drop = FALSE]) %*% b)
      -sum(y[half == k] * eta - log1p(exp(eta)))
    }, numeric(1)))
  }, numeric(1))
  b <- ridge_logit(P, y, lams[which.min(dev)])
  function(A) drop(cbind(1, f(A)) %*% b)
}

rows <- list()
for (d in dims) for (kind in kinds) {
  g <- validity_kind_group(kind, d, seed = seed, truth_n = truth_n)
  real <- g$real(n)
  for (m in names(g$models)) {
    mo <- g$models[[m]]
    gen <- mo$sample(n)
    state <- .Random.seed
    ev <- curve_eval_rows(real, list(m = gen))
    assign(".Random.seed", state, envir = globalenv())
    t0 <- proc.time()[[3]]
    cv <- suppressWarnings(prd_curve(real, gen, method = c("tightest", "quadratic")))
    t_def <- proc.time()[[3]] - t0
    s <- summary(cv)
    er <- ev$real
    eg <- ev$generated[[1]]
    fr <- setdiff(seq_len(n), er)
    fg <- setdiff(seq_len(n), eg)
    row <- list(model = m, d = d, truth = mo$truth_auc,
                oracle = auc_of(prd_scores(-mo$log_ratio(real[er, ]),
                                           -mo$log_ratio(gen[eg, ]))),
                default = s$auc[s$method == "tightest"],
                quadratic = s$auc[s$method == "quadratic"], default_s = t_def)
    for (h in hs) {
      t0 <- proc.time()[[3]]
      sc <- kernel_logit_fit(real[fr, ], gen[fg, ], h, n_land)
      row[[paste0("kernel h = ", h)]] <- auc_of(prd_scores(sc(real[er, ]), sc(gen[eg, ])))
      row[[paste0("kernel_s h = ", h)]] <- proc.time()[[3]] - t0
    }
    rows[[length(rows) + 1L]] <- row
    cat(sprintf("%s d = %d: %s\n", m, d, paste(names(row)[-(1:2)],
        fmt_num(unlist(row[-(1:2)]), 3), collapse = ", ")))
  }
}

tab <- do.call(rbind, lapply(rows, as.data.frame, check.names = FALSE))
auc_cols <- c("truth", "oracle", "default", "quadratic",
              paste0("kernel h = ", hs))
err <- function(col) tab[[col]] - tab$truth
lines <- c("| model | d | truth | oracle | default | quadratic |",
           paste0("|---|---:|---:|---:|---:|---:|"))
lines[1] <- paste0(lines[1], paste0(" kernel, h = ", hs, " |", collapse = ""))
lines[2] <- paste0(lines[2], strrep("---:|", length(hs)))
for (i in seq_len(nrow(tab))) {
  e <- vapply(auc_cols[-1], function(cn) tab[[cn]][i] - tab$truth[i], numeric(1))
  lines <- c(lines, paste0("| ", tab$model[i], " | ", tab$d[i], " | ",
                           fmt_num(tab$truth[i], 3), " | ",
                           paste(sprintf("%+.3f", e), collapse = " | "), " |"))
}
mean_abs <- vapply(auc_cols[-1], function(cn) mean(abs(err(cn))), numeric(1))
lines <- c(lines, paste0("| mean abs. error | | | ",
                         paste(fmt_num(mean_abs, 3), collapse = " | "), " |"))
secs <- vapply(paste0("kernel_s h = ", hs), function(cn) stats::median(tab[[cn]]), numeric(1))
cat("\n", lines, sep = "\n")
cat(sprintf("\nseconds (medians): default with quadratic %.1f, kernel fits %s\n",
            stats::median(tab$default_s), paste(fmt_num(secs, 1), collapse = " / ")))

if (flag("write")) {
  write_section(c(
    "# A kernel family for clustered data (bench/kernel-logit.R)", "",
    sprintf(paste0("`Rscript bench/kernel-logit.R --dims %s --kinds %s --n %d --landmarks %d ",
                   "--bandwidths %s` (%s, commit %s): AUC - truth on the evaluation rows of ",
                   "one `prd_curve()` call (split 0.5), the kernel family fitted once on its ",
                   "fit rows; the oracle: the exact log-likelihood ratio on those rows."),
            paste(dims, collapse = ","), paste(kinds, collapse = ","), n, n_land,
            paste(hs, collapse = ","), format(Sys.Date()),
            system("git rev-parse --short HEAD", intern = TRUE)), "",
    lines, ""))
}
