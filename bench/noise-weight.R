# The weight of a family's noise in the default's choice (its registry
# entry's noise_weight: the mixture's mixture_noise_weight, the spectral
# family's spectral_noise_weight, R/families.R; tightest_penalty, 4, for the
# others): one default prd_curve() call per validity group, d, size and
# draw, its families' envelopes on both halves of the evaluation rows and on
# every row kept (tightest_envelope()'s arguments), then the choice made
# again with each weight of that family's noise. Prints each model's AUC
# minus the truth per weight, the mean |AUC error| per group and size, and
# overall.
#
# Groups: the validity suite's kinds (validity_kind_group(), seed 1) or its
# groups gauss, mixture and aniso (validity_scenarios(), seed 1): the
# suite's models and truths (--truth-n draws), data drawn anew for each
# draw (set.seed(draw)).
#
# Usage (package root): Rscript bench/noise-weight.R [--family mixture]
#   [--weights 4,2,1,0]
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
family <- opt("family", "mixture")
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
  g <- if (tk$kind %in% validity_kinds) {
    validity_kind_group(tk$kind, d, seed = 1L, truth_n = truth_n)
  } else {
    sc <- validity_scenarios(d, seed = 1L, truth_n = truth_n)
    sc[[match(tk$kind, vapply(sc, `[[`, "", "name"))]]
  }
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

# the choice again from the kept envelopes, with the family's weight w
mix <- family_env$entries[[family]]
rechoose <- function(r, w) {
  envs <- lapply(names(r$full), function(f) {
    function(ir, ig) {
      if (missing(ir)) return(r$full[[f]])
      r$e[[if (identical(ir, r$hr[[1]])) 1L else 2L]][[f]]
    }
  })
  names(envs) <- names(r$full)
  family_env$entries[[family]]$noise_weight <- w
  on.exit(family_env$entries[[family]] <- mix)
  envelope_auc(r$lambda, choose(envs, r$hr, r$hg, r$lambda))
}
out <- do.call(rbind, lapply(runs, function(r) {
  err <- vapply(weights, function(w) rechoose(r, w) - r$truth, numeric(1))
  data.frame(kind = r$kind, d = r$d, n = r$n, draw = r$draw, model = r$model,
             truth = round(r$truth, 3), joined = family %in% names(r$full),
             t(stats::setNames(round(err, 4), paste0("w", weights))))
}))
wc <- paste0("w", weights)
cat(sprintf("AUC - truth with the %s family's noise weight w (the others 4)\n", family))
print(out, row.names = FALSE)
cat("\nmean |AUC error| per kind and size\n")
agg <- stats::aggregate(abs(out[, wc]), out[, c("kind", "d", "n")], mean)
print(format(agg, digits = 3), row.names = FALSE)
cat(sprintf("\n%d calls, the %s family in %d; mean |AUC error| overall: %s\n",
            nrow(tasks), family, sum(tapply(out$joined, paste(out$kind, out$d, out$n, out$draw), any)),
            paste(sprintf("%s %.4f", wc, colMeans(abs(out[, wc]))), collapse = ", ")))
cat("\nmean |AUC error| per group\n")
agg <- stats::aggregate(abs(out[, wc]), out["kind"], mean)
print(format(agg, digits = 3), row.names = FALSE)
