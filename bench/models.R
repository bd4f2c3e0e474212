# Several models share the real set's work: manifold_metrics() without a
# split on 4 generated sets against one, 10,000 rows per set, d = 256.
# Usage: Rscript bench/models.R   (prints a markdown row)
library(prdcurve)
n <- as.integer(Sys.getenv("BENCH_N", "10000"))
d <- as.integer(Sys.getenv("BENCH_D", "256"))
set.seed(1)
real <- matrix(rnorm(n * d), n, d)
gens <- lapply(1:4, function(i) {
  g <- matrix(rnorm(n * d), n, d)
  g[, 1] <- g[, 1] + 0.25 * i
  g
})
names(gens) <- paste0("m", 1:4)
metrics <- c("precision", "recall", "density", "coverage")
invisible(manifold_metrics(real[1:500, ], gens$m1[1:500, ], metrics = metrics))
t1 <- system.time(m1 <- manifold_metrics(real, gens$m1, metrics = metrics))[["elapsed"]]
t4 <- system.time(m4 <- manifold_metrics(real, gens, metrics = metrics))[["elapsed"]]
stopifnot(identical(m4$value[m4$model == "m1"], m1$value))
cat(sprintf("| %s | %d | %d | %.2f | %.2f | %.2f |\n", format(Sys.Date()), n, d,
            t1, t4, t4 / t1))
