# Keep or drop: three optimisations of the engine, each timed against the
# build with all of them, in one run. Each variant is the package built
# with one compile-time switch (R_MAKEVARS_USER with CPPFLAGS = -D<switch>)
# into its own library:
#   PRD_NO_CLONES       no AVX2 clones of the row passes (src/engine.h)
#   PRD_NO_HUGEPAGE     scratch slots without madvise(MADV_HUGEPAGE)
#                       (src/scratch.c)
#   PRD_NO_BLAS_SERIAL  OpenBLAS keeps its own threads during the tile
#                       products (src/products.c)
# Calls: prd_curve() with the four neighbour families (split 0.5, two
# engine threads) and manifold_metrics() with the four scalars (no split),
# on bench_data(n, d). Every call runs in a fresh Rscript process (the
# variants cannot share one), the variants alternate within each round,
# and the table gives medians over the rounds of the in-process elapsed
# and CPU (user + system) seconds of the call, and each variant's ratio to
# the base build within its round.
#
# Usage (package root):
#   sh: for v in base PRD_NO_CLONES PRD_NO_HUGEPAGE PRD_NO_BLAS_SERIAL; do
#         [ $v = base ] && : > /tmp/mk-$v || echo "CPPFLAGS = -D$v" > /tmp/mk-$v
#         mkdir -p lib-$v; R_MAKEVARS_USER=/tmp/mk-$v R CMD INSTALL --preclean -l lib-$v .
#       done
#   Rscript bench/knobs.R --libs lib- [--sizes 20000x64,10000x2048] [--rounds 3]
source("bench/common.R")
prefix <- opt("libs", "lib-")
sizes <- strsplit(opt("sizes", "20000x64,10000x2048"), ",")[[1]]
rounds <- as.integer(opt("rounds", "3"))
variants <- c("base", "PRD_NO_CLONES", "PRD_NO_HUGEPAGE", "PRD_NO_BLAS_SERIAL")
calls <- c(curves = 'prd_curve(dat$real, dat$generated, method = c("knn", "kde", "ipr", "coverage"))',
           scalars = 'manifold_metrics(dat$real, dat$generated, k = 5, metrics = c("precision", "recall", "density", "coverage"))')
one <- function(v, size, call) {
  nd <- as.integer(strsplit(size, "x")[[1]])
  code <- sprintf(paste(
    "suppressPackageStartupMessages(library(prdcurve, lib.loc = '%s'));",
    "source('bench/common.R'); dat <- bench_data(%d, %d); invisible(%s);",
    "t <- proc.time(); invisible(%s); u <- proc.time() - t;",
    "cat(u[['elapsed']], u[['user.self']] + u[['sys.self']] + u[['user.child']] + u[['sys.child']])"),
    paste0(prefix, v), nd[1], nd[2], "prd_curve(dat$real[1:200, ], dat$generated[1:200, ])", call)
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)),
                 stdout = TRUE, stderr = FALSE)
  as.numeric(strsplit(out[length(out)], " ")[[1]])
}
res <- list()
for (r in seq_len(rounds)) for (size in sizes) for (cn in names(calls)) {
  for (v in variants) {
    x <- one(v, size, calls[[cn]])
    res[[length(res) + 1L]] <- data.frame(round = r, size = size, call = cn,
                                          variant = v, elapsed = x[1], cpu = x[2])
  }
}
res <- do.call(rbind, res)
base <- res[res$variant == "base", ]
res$ratio <- res$elapsed / base$elapsed[match(paste(res$round, res$size, res$call),
                                            paste(base$round, base$size, base$call))]
tab <- aggregate(cbind(elapsed, cpu, ratio) ~ size + call + variant, res, stats::median)
tab <- tab[order(tab$size, tab$call, match(tab$variant, variants)), ]
cat(sprintf("load average %s\n", paste(readLines("/proc/loadavg"), collapse = "")))
cat("| size | call | variant | elapsed s | CPU s | ratio to base (elapsed) |\n|---|---|---|---:|---:|---:|\n")
cat(sprintf("| %s | %s | %s | %.2f | %.2f | %.2f |\n", tab$size, tab$call, tab$variant,
            tab$elapsed, tab$cpu, tab$ratio), sep = "")
