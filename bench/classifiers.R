# Time of each curve family of prd_curve() at n rows per set and d columns
# (split 0.5, bench_data(): N(0, I) vs N(0.5 e1, I)): one family per call,
# medians of `reps` calls, all in this one process so the ratios to knn are
# measured under the same load. Both the elapsed time and the CPU time of
# the process (user + system, summed over its threads) are reported: on a
# shared machine the elapsed time depends on the other load, the CPU time
# much less.
#
# The measured tables are in bench/results.md ("Time of each curve family").
# With one fit, the quadratic's cost is two d x d covariances of 5,000
# rows, two Cholesky factors and inverses, and one product of the 10,000
# evaluation rows with a d x d matrix; in 10 folds, the covariances of all
# rows (fold moments), two Cholesky factors per fold and two triangular
# solves per evaluation row; all in double precision (the engine's
# products are single precision).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/classifiers.R [N = 10000] [D = 2048] [REPS = 3] [--folds K]
#     [--aniso] [--only knn,stacked]
# With --only, just the named cases (the names of the table's first
# column, comma-separated; knn is always run, for the ratios): more
# repeats of a few families in the same time.
# With --aniso, column i of both sets is scaled by 1 / sqrt(i) (a spectrum
# falling as 1 / i, as embeddings' do): the linear discriminants of the
# folds take a few conjugate-gradient steps there, one on isotropic data,
# where the shrinkage is full.
# The fitted families run with the package's default folds (10: each fit
# on the fit rows and 9 of 10 folds of the evaluation rows); each is also
# timed with folds = 1 (one fit on the fit rows), as the default
# `tightest`. With --folds K: also `linear` and the default `tightest`
# with folds = K.
args <- commandArgs(trailingOnly = TRUE)
aniso <- "--aniso" %in% args
args <- setdiff(args, "--aniso")
oi <- match("--only", args)
# (names are split at commas not followed by a space: "quadratic, folds = 1"
# is one name)
only <- if (is.na(oi)) NULL else strsplit(args[oi + 1L], ",(?! )", perl = TRUE)[[1]]
if (!is.na(oi)) args <- args[-c(oi, oi + 1L)]
fi <- match("--folds", args)
folds <- if (is.na(fi)) NULL else as.integer(args[fi + 1L])
if (!is.na(fi)) args <- args[-c(fi, fi + 1L)]
n <- if (length(args) >= 1) as.integer(args[1]) else 10000L
d <- if (length(args) >= 2) as.integer(args[2]) else 2048L
reps <- if (length(args) >= 3) as.integer(args[3]) else 3L
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
dat <- bench_data(n, d)
if (aniso) {
  sdv <- 1 / sqrt(seq_len(d))
  dat$real <- dat$real * rep(sdv, each = n)
  dat$generated <- dat$generated * rep(sdv, each = n)
}

cases <- list(
  knn = list(method = "knn"),
  linear = list(method = "linear"),
  "linear, folds = 1" = list(method = "linear", folds = 1),
  quadratic = list(method = "quadratic"),
  "quadratic, folds = 1" = list(method = "quadratic", folds = 1),
  stacked = list(method = "stacked"),
  "stacked, folds = 1" = list(method = "stacked", folds = 1),
  marginal = list(method = "marginal"),
  "marginal, folds = 1" = list(method = "marginal", folds = 1),
  smooth_marginal = list(method = "smooth_marginal"),
  spectral = list(method = "spectral"),
  "knn and coverage" = list(method = c("knn", "coverage")),
  "tightest (linear, quadratic)" =
    list(method = "tightest", families = c("linear", "quadratic")),
  "tightest (linear, quadratic, knn)" =
    list(method = "tightest", families = c("linear", "quadratic", "knn")),
  "tightest (default families)" = list(method = "tightest"),
  "tightest (default families), folds = 1" =
    list(method = "tightest", folds = 1)
)
if (!is.null(folds)) {
  cases[[sprintf("linear, folds = %d", folds)]] <-
    list(method = "linear", folds = folds)
  cases[[sprintf("tightest (default families), folds = %d", folds)]] <-
    list(method = "tightest", folds = folds)
}
if (!is.null(only)) {
  bad <- setdiff(only, names(cases))
  if (length(bad)) stop("--only: no case named ", paste(bad, collapse = ", "))
  cases <- cases[union("knn", only)]
}
times <- matrix(NA_real_, reps, length(cases), dimnames = list(NULL, names(cases)))
cpu <- times
for (r in seq_len(reps)) {
  for (nm in names(cases)) { # interleaved, so load changes hit every case
    set.seed(r)
    st <- system.time(suppressWarnings(
      do.call(prd_curve, c(list(dat$real, dat$generated), cases[[nm]]))
    ))
    times[r, nm] <- st[["elapsed"]]
    cpu[r, nm] <- st[["user.self"]] + st[["sys.self"]]
  }
}
med <- apply(times, 2, stats::median)
medc <- apply(cpu, 2, stats::median)
runs <- function(m) apply(m, 2, function(t) paste(sprintf("%.1f", t), collapse = " "))
tab <- data.frame(family = names(med), elapsed_s = round(med, 2),
                  elapsed_runs = runs(times),
                  elapsed_ratio = round(med / med[["knn"]], 2),
                  cpu_s = round(medc, 2), cpu_runs = runs(cpu),
                  cpu_ratio = round(medc / medc[["knn"]], 2), row.names = NULL)
cat(sprintf("n = %d per set, d = %d%s, split 0.5, %d runs each (interleaved)\n", n, d,
            if (aniso) ", column i scaled by 1 / sqrt(i)" else "", reps))
print(tab, right = FALSE)

# The floor of a fitted family that fits on every row (the 10-fold
# default) in double precision: the covariance of all 2 n rows (the fold
# moments' totals: crossprod() of each set's centred rows) and one
# product of the n evaluation rows with a d x d matrix (scoring by a
# quadratic form; its two triangular solves cost about as much), whatever
# is done per fold; and, for the 10-fold quadratic, the Cholesky factors
# of two d x d covariances a fold (chol()), which no downdate avoids (a
# fold leaves out r = n / 20 evaluation rows of a set: a Woodbury
# downdate of rank r takes about d^2 r flops, a factor d^3 / 3, about the
# same at n = 10,000, d = 2,048). knn plus this floor is the least that a
# default holding knn and the 10-fold quadratic can cost in double
# precision.
floor_t <- matrix(NA_real_, reps, 3,
                  dimnames = list(NULL, c("covariance of all rows",
                                          "scoring the evaluation rows",
                                          "Cholesky factors, 2 a fold, 10 folds")))
for (r in seq_len(reps)) {
  floor_t[r, 1] <- sum(vapply(list(dat$real, dat$generated), function(X) {
    C <- sweep(X, 2L, colMeans(X)) # (the centring not timed)
    system.time(crossprod(C))[["elapsed"]]
  }, numeric(1)))
  A <- crossprod(matrix(stats::rnorm(d * d), d)) / d
  Z <- rbind(dat$real[seq_len(n / 2), ], dat$generated[seq_len(n / 2), ])
  floor_t[r, 2] <- system.time(Z %*% A)[["elapsed"]]
  rm(Z)
  A <- A + diag(d)
  floor_t[r, 3] <- system.time(for (v in 1:20) chol(A))[["elapsed"]]
}
fl <- apply(floor_t, 2, stats::median)
cat("\nThe floor in double precision (medians of", reps, "runs, s):\n")
print(data.frame(step = names(fl), elapsed_s = round(fl, 2),
                 knn_ratio = round(fl / med[["knn"]], 2), row.names = NULL),
      right = FALSE)
cat(sprintf("sum: %.2f s, %.2fx knn; knn and this floor: %.2fx knn\n", sum(fl),
            sum(fl) / med[["knn"]], 1 + sum(fl) / med[["knn"]]))
