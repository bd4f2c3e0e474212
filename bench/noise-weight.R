# The weight of the mixture family's noise in the default's choice
# (mixture_noise_weight, R/families.R; tightest_penalty, 4, for the other
# families): one default prd_curve() call per validity kind, d, size and
# draw, its families' envelopes on both halves of the evaluation rows and on
# every row kept (tightest_envelope()'s arguments), then the choice made
# again with each weight of the mixture's noise. Prints each model's AUC
# minus the truth per weight, the mean |AUC error| per kind and size, and
# overall.
#
# Kinds: the validity suite's clusters, clusters_lowrank, manifold and
# heavy_t3 (validity_kind_group(), seed 1: the suite's models and truths,
# --truth-n draws), data drawn anew for each draw (set.seed(draw)).
#
# Usage (package root): Rscript bench/noise-weight.R [--weights 4,2,1,0]
#   [--cases 64:2000,256:2000,64:5000,256:5000,512:5000]   (d:n per set)
#   [--draws 1,2] [--kinds clusters,clusters_lowrank,manifold,heavy_t3]
#   [--truth-n 2e5] [--cores 2] [--installed]
# About 17 minutes with the defaults on 2 cores (40 calls).
args <- commandArgs(trailingOnly = TRUE)
source("bench/common.R")
ns <- bench_package(args)
options(prdcurve.progress = FALSE, width = 150)
opt <- function(name, default) {
  i <- match(paste0("--", name), args)
  v <- if (is.na(i)) default else args[i + 1L]
  strsplit(v, ",", fixed = TRUE)[[1]]
}
weights <- as.numeric(opt("weights", "4,2,1,0"))
cases <- lapply(strsplit(opt("cases", "64:2000,256:2000,64:5000,256:5000,512:5000"), ":"),
                as.integer)
draws <- as.integer(opt("draws", "1,2"))
kinds <- opt("kinds", "clusters,clusters_lowrank,manifold,heavy_t3")
truth_n <- as.numeric(opt("truth-n", "2e5"))
cores <- as.integer(opt("cores", "2"))

# every tightest_envelope() call of a prd_curve() call: its envelopes (a
# list per model, in order)
saved <- new.env()
choose <- keep_envelopes(ns, saved)

tasks <- expand.grid(kind = kinds, case = seq_along(cases), draw = draws,
                     stringsAsFactors = FALSE)
one_task <- function(i) {
  tk <- tasks[i, ]
  d <- cases[[tk$case]][1]
  n <- cases[[tk$case]][2]
  g <- validity_kind_group(tk$kind, d, seed = 1L, truth_n = truth_n)
  set.seed(tk$draw)
  dr <- validity_draw(g, n)
  saved$calls <- list()
  suppressWarnings(prd_curve(dr$real, dr$gens))
  lapply(seq_along(g$models), function(j) {
    c(saved$calls[[j]], list(truth = g$models[[j]]$truth_auc,
                             model = names(g$models)[j], kind = tk$kind,
                             d = d, n = n, draw = tk$draw))
  })
}
runs <- unlist(parallel::mclapply(seq_len(nrow(tasks)), one_task,
                                  mc.cores = cores, mc.preschedule = FALSE),
               recursive = FALSE)

# the choice again from the kept envelopes, with the mixture's weight w
mix <- family_env$entries$mixture
rechoose <- function(r, w) {
  envs <- lapply(names(r$full), function(f) {
    function(ir, ig) {
      if (missing(ir)) return(r$full[[f]])
      r$e[[if (identical(ir, r$hr[[1]])) 1L else 2L]][[f]]
    }
  })
  names(envs) <- names(r$full)
  family_env$entries$mixture$noise_weight <- w
  on.exit(family_env$entries$mixture <- mix)
  envelope_auc(r$lambda, choose(envs, r$hr, r$hg, r$lambda))
}
out <- do.call(rbind, lapply(runs, function(r) {
  err <- vapply(weights, function(w) rechoose(r, w) - r$truth, numeric(1))
  data.frame(kind = r$kind, d = r$d, n = r$n, draw = r$draw, model = r$model,
             truth = round(r$truth, 3), mixture = "mixture" %in% names(r$full),
             t(stats::setNames(round(err, 4), paste0("w", weights))))
}))
wc <- paste0("w", weights)
cat("AUC - truth with the mixture's noise weight w (the others 4)\n")
print(out, row.names = FALSE)
cat("\nmean |AUC error| per kind and size\n")
agg <- stats::aggregate(abs(out[, wc]), out[, c("kind", "d", "n")], mean)
print(format(agg, digits = 3), row.names = FALSE)
cat(sprintf("\n%d calls, the mixture in %d; mean |AUC error| overall: %s\n",
            nrow(tasks), sum(tapply(out$mixture, paste(out$kind, out$d, out$n, out$draw), any)),
            paste(sprintf("%s %.4f", wc, colMeans(abs(out[, wc]))), collapse = ", ")))
cl <- grepl("^clusters", out$kind) & out$n == 5000
cat(sprintf("clusters groups at 5,000 per set: %s\n",
            paste(sprintf("%s %.4f", wc, colMeans(abs(out[cl, wc]))), collapse = ", ")))
oth <- out$kind %in% c("manifold", "heavy_t3")
cat(sprintf("manifold and heavy_t3: %s\n",
            paste(sprintf("%s %.4f", wc, colMeans(abs(out[oth, wc]))), collapse = ", ")))
