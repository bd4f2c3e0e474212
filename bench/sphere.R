# Clustered embeddings on the unit sphere, as L2-normalised embeddings
# (CLIP, DINOv2) are: mixtures of 16 von Mises-Fisher classes of one
# concentration kappa around random unit centres in d dimensions, drawn by
# Wood's (1994) rejection sampler (Simulation of the von Mises Fisher
# distribution, Communications in Statistics - Simulation and Computation
# 23(1), 157-164, doi:10.1080/03610919408813161). With one kappa the
# classes' normalising constant is common to P and Q and cancels in the
# log-likelihood ratio, so prd_truth() gives the true curve (Monte Carlo,
# 100,000 draws a set). Models: three classes dropped (drop3), four classes
# of three times the weight (reweight). Prints, per model and method, the
# true AUC, the estimate, its error, the seconds of the call, and the
# clusters test's held-out gain (mixture_clustered(): the default takes the
# mixture family where it is positive). Methods: env METHODS, default
# "tightest,knn"; "tightest+mixture" is the default with the mixture added
# to its families by hand.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/sphere.R D N KAPPA
#   METHODS=tightest,knn,mixture,tightest+mixture Rscript bench/sphere.R 128 5000 30
# The measured table is in bench/results.md ("Clustered data: the mixture
# family").
suppressPackageStartupMessages(library(prdcurve))
rvmf_w <- function(n, kappa, p) {
  b <- (-2 * kappa + sqrt(4 * kappa^2 + (p - 1)^2)) / (p - 1)
  x0 <- (1 - b) / (1 + b)
  cc <- kappa * x0 + (p - 1) * log(1 - x0^2)
  out <- numeric(0)
  while (length(out) < n) {
    m <- 2 * (n - length(out)) + 10
    z <- rbeta(m, (p - 1) / 2, (p - 1) / 2)
    w <- (1 - (1 + b) * z) / (1 - (1 - b) * z)
    u <- runif(m)
    ok <- kappa * w + (p - 1) * log(1 - x0 * w) - cc >= log(u)
    out <- c(out, w[ok])
  }
  out[seq_len(n)]
}
rvmf_mix <- function(n, M, w, kappa) {
  p <- ncol(M)
  k <- sample.int(nrow(M), n, TRUE, prob = w)
  W <- rvmf_w(n, kappa, p)
  V <- matrix(rnorm(n * p), n, p)
  Mu <- M[k, , drop = FALSE]
  V <- V - rowSums(V * Mu) * Mu
  V <- V / sqrt(rowSums(V^2))
  W * Mu + sqrt(1 - W^2) * V
}
logmix <- function(X, M, w, kappa) {
  A <- kappa * (X %*% t(M)) + rep(log(w), each = nrow(X))
  mx <- apply(A, 1, max)
  mx + log(rowSums(exp(A - mx)))
}
args <- commandArgs(TRUE)
d <- as.integer(args[1]); n <- as.integer(args[2]); kappa <- as.numeric(args[3])
K <- 16
set.seed(1)
M <- matrix(rnorm(K * d), K, d); M <- M / sqrt(rowSums(M^2))
wp <- rep(1 / K, K)
models <- list(drop3 = c(rep(1, K - 3), rep(0, 3)), reweight = c(rep(3, 4), rep(1, K - 4)))
models <- lapply(models, function(w) w / sum(w))
real <- rvmf_mix(n, M, wp, kappa)
# (the clusters test leaves the RNG's state as it was)
gain <- round(prdcurve:::mixture_clustered(real)$gain, 3)
res <- NULL
for (nm in names(models)) {
  wq <- models[[nm]]
  keep <- wq > 0
  tr <- prd_truth(function(X) logmix(X, M, wp, kappa),
                  function(X) logmix(X, M[keep, , drop = FALSE], wq[keep], kappa),
                  function(m) rvmf_mix(m, M, wp, kappa),
                  function(m) rvmf_mix(m, M[keep, , drop = FALSE], wq[keep], kappa), n = 1e5)
  gen <- rvmf_mix(n, M[keep, , drop = FALSE], wq[keep], kappa)
  for (meth in strsplit(Sys.getenv("METHODS", "tightest,knn"), ",")[[1]]) {
    t0 <- proc.time()[3]
    r <- suppressWarnings(if (meth == "tightest+mixture") {
      prd_curve(real, gen, families = c(prdcurve:::tightest_families(real), "mixture"))
    } else {
      prd_curve(real, gen, method = meth)
    })
    el <- proc.time()[3] - t0
    res <- rbind(res, data.frame(d = d, n = n, kappa = kappa, model = nm, method = meth,
      truth = round(summary(tr)$auc, 3), auc = round(summary(r)$auc, 3),
      error = round(summary(r)$auc - summary(tr)$auc, 3), seconds = round(el, 1),
      gain = gain))
  }
}
print(res, row.names = FALSE)
