# Seeded random fuzzing of every exported function: random hostile inputs
# (bench/fuzz-cases.R, fuzz-metrics.R, fuzz-results.R) run through the
# test suite's harness (tests/testthat/helper-fuzz.R), each case classified
# as
#   ok, error (a classed error that names an argument, flag or file the
#   caller gave), unclear (any other error), silent-wrong (a non-finite or
#   out-of-range result with no classed warning, or a broken invariant),
#   unclassed warning, hang (> --timeout s), crash (the R process died).
# Chunks of cases run in forked child processes (parallel::mcparallel), one
# at a time, so a crash or a hang in C ends the chunk, not the run: the case
# is recorded and the next chunk starts after it.
#
# Usage (from the package root; the package is loaded with
# pkgload::load_all(), or with --installed the installed one):
#   nice Rscript bench/fuzz.R --cases 20000 --seed 45
#   Rscript bench/fuzz.R --seed 45 --case 1234        # rerun one case here
#   Rscript bench/fuzz.R --cases 500 --fn prd_curve,prd_cli
# Writes every case to /tmp/prdcurve-fuzz-SEED.tsv and the failing ones
# (seed, case, function, arguments, message) to
# /tmp/prdcurve-fuzz-SEED-failures.tsv; prints the counts per class and per
# function. Exit status 1 when a case is not ok or a clear error.

opt <- list(cases = 500L, seed = 1L, chunk = 100L, timeout = 10, case = NA_integer_,
            fn = "", installed = FALSE, out = "")
argv <- commandArgs(trailingOnly = TRUE)
i <- 1L
while (i <= length(argv)) {
  a <- sub("^--", "", argv[i])
  if (a == "installed") {
    opt$installed <- TRUE
  } else if (a %in% names(opt)) {
    v <- argv[i + 1L]
    opt[[a]] <- if (is.character(opt[[a]])) v else as(v, class(opt[[a]]))
    i <- i + 1L
  } else {
    stop("unknown option ", argv[i])
  }
  i <- i + 1L
}
if (opt$out == "") opt$out <- sprintf("/tmp/prdcurve-fuzz-%d", opt$seed)

if (!opt$installed && file.exists("DESCRIPTION")) {
  pkgload::load_all(quiet = TRUE)
} else {
  suppressPackageStartupMessages(library(prdcurve))
}
source("tests/testthat/helper-fuzz.R")
source("bench/fuzz-cases.R")
source("bench/fuzz-metrics.R")
source("bench/fuzz-results.R")

# ---- the generators ------------------------------------------------------------

work <- tempfile("prdcurve-fuzz")
dir.create(work)
objects <- fuzz_objects()
files <- fuzz_files(file.path(work, "files"))
generators <- c(
  list(prd_curve = gen_prd_curve, prd_discrete = gen_prd_discrete, prd_scores = gen_prd_scores,
       prd_histogram = gen_prd_histogram, prd_kde_plugin = gen_prd_kde_plugin,
       prd_truth_gaussian = gen_prd_truth_gaussian, prd_truth = gen_prd_truth,
       gaussian_mixture = gen_gaussian_mixture, "gaussian_mixture()$method" = gen_mixture_methods,
       manifold_metrics = gen_manifold("manifold_metrics"),
       manifold_samples = gen_manifold("manifold_samples"),
       entropy_metrics = gen_entropy("entropy_metrics"),
       entropy_samples = gen_entropy("entropy_samples"),
       knn_entropy = gen_knn_entropy, knn_cross_entropy = gen_knn_cross_entropy,
       pmse_stats = gen_pmse_stats, embedding_metrics = gen_embedding_metrics,
       prd_class_subset = gen_prd_class_subset, prd_threads = gen_prd_threads,
       prd_iou = gen_prd_iou(objects), prd_bind = gen_prd_bind(objects),
       prd_read = gen_prd_read(files), prd_npz_arrays = gen_prd_npz_arrays(files),
       prd_cli = gen_prd_cli(files, work)),
  sapply(c("sim_shifted_gaussians", "sim_gaussian_mixtures", "sim_spheres"), gen_sim,
         simplify = FALSE),
  sapply(c("tidy", "glance", "autoplot", "prd_compare", "prd_curve_info", "prd_curve_bands",
           "prd_figure_size", "summary", "plot"), gen_object_fn, objects = objects,
         simplify = FALSE)
)
missing <- setdiff(getNamespaceExports("prdcurve"), names(generators))
if (length(missing)) stop("no generator for ", paste(missing, collapse = ", "))
fns <- names(generators)
if (nzchar(opt$fn)) fns <- intersect(strsplit(opt$fn, ",")[[1]], fns)

set.seed(opt$seed)
case_seeds <- sample.int(.Machine$integer.max, max(opt$cases, opt$case, na.rm = TRUE))

#' A short description of an argument value
label_of <- function(v) {
  if (is.null(v)) return("NULL")
  if (is.function(v)) return("<function>")
  if (is.call(v) || is.name(v)) return(paste(deparse(v), collapse = ""))
  if (is.data.frame(v)) {
    return(sprintf("<df %dx%d %s>", nrow(v), ncol(v),
                   paste(vapply(v, function(x) class(x)[1], ""), collapse = ",")))
  }
  if (is.matrix(v)) {
    bad <- if (is.numeric(v)) {
      c(if (anyNA(v)) "NA", if (any(is.infinite(v))) "Inf",
        if (length(v) && any(abs(v[is.finite(v)]) > 1e100)) "huge",
        if (length(v) && any(v[is.finite(v)] != 0 & abs(v[is.finite(v)]) < 1e-100)) "tiny")
    }
    return(sprintf("<%s %dx%d%s>", typeof(v), nrow(v), ncol(v),
                   if (length(bad)) paste0(" ", paste(bad, collapse = ",")) else ""))
  }
  if (inherits(v, "prd_curve")) return(sprintf("<prd_curve %d rows>", nrow(v)))
  if (is.list(v)) {
    if (length(v) <= 3 && !is.object(v)) {
      return(sprintf("list(%s)", paste(names(v) %||% rep("", length(v)),
                                       vapply(v, label_of, ""), sep = "=", collapse = ", ")))
    }
    return(sprintf("<%s of %d>", class(v)[1], length(v)))
  }
  if (length(v) <= 4) return(paste(deparse(v, width.cutoff = 60), collapse = ""))
  sprintf("<%s %d>", class(v)[1], length(v))
}

args_summary <- function(args) {
  nm <- names(args) %||% rep("", length(args))
  paste(ifelse(nzchar(nm), paste0(nm, "="), ""), vapply(args, label_of, ""), collapse = ", ")
}

#' Draw case `i` (its own seed) and run it: a one-line record
run_case <- function(i) {
  set.seed(case_seeds[i])
  fn <- sample(fns, 1)
  fuzz_state$hostility <- if (stats::runif(1) < 0.4) 0.25 else 1
  fuzz_state$call_seed <- sample.int(1e6, 1)
  cs <- generators[[fn]]()
  f <- cs$fn %||% get(fn, envir = asNamespace("prdcurve"))
  if (fn %in% c("summary", "plot")) f <- cs$fn %||% get(fn)
  args <- cs$args
  if (isTRUE(cs$cli)) {
    a <- args$args
    flags <- sub("=.*", "", a[startsWith(a, "-")])
    paths <- sub("^--(real|generated)=", "", a[!startsWith(a, "-") | grepl("^--(real|generated)=", a)])
    paths <- sub("^[^=/]*=", "", paths)
    given <- unique(c(flags, paths, basename(paths)))
    anywhere <- TRUE
    formal_names <- character()
  } else {
    # arguments by name; unnamed ones of `...` as rlang names them (`..1`)
    nm <- names(args) %||% rep("", length(args))
    pos <- which(!nzchar(nm))
    fml <- names(formals(f))
    if (identical(fml, "...")) {
      nm[pos] <- paste0("..", pos)
    } else {
      fixed <- setdiff(fml, c("...", nm))
      nm[pos] <- c(fixed, paste0("..", seq_along(pos)))[seq_along(pos)]
    }
    given <- nm
    formal_names <- names(formals(f))
    anywhere <- FALSE
  }
  run <- fuzz_run(function() {
    set.seed(fuzz_state$call_seed)
    do.call(f, args)
  }, limit = opt$timeout)
  values <- unlist(Filter(function(v) is.character(v) && length(v) <= 3, args))
  v <- fuzz_verdict(run, cs$check %||% function(x) NULL, isTRUE(cs$warned_ok),
                    given = given, formals = formal_names, anywhere = anywhere,
                    values = values %||% character(), limit = opt$timeout)
  list(i = i, fn = fn, class = v$class, seconds = run$seconds,
       args = args_summary(if (isTRUE(cs$cli)) as.list(args$args) else args),
       problem = v$problem %||% (if (is.null(run$error)) "" else conditionMessage(run$error)),
       run = run)
}

clean <- function(x) gsub("[\t\n\r]+", " ", x)

record_line <- function(r) {
  paste(r$i, case_seeds[r$i], r$fn, r$class, sprintf("%.3f", r$seconds), clean(r$args),
        clean(substr(r$problem, 1, 500)), sep = "\t")
}

# ---- one case, here -------------------------------------------------------------------

if (!is.na(opt$case)) {
  r <- run_case(opt$case)
  cat(sprintf("case %d (seed %d): %s -> %s (%.2f s)\n  args: %s\n", r$i, case_seeds[r$i],
              r$fn, r$class, r$seconds, r$args))
  if (nzchar(r$problem)) cat("  problem:", r$problem, "\n")
  if (!is.null(r$run$error)) {
    cat("  error class:", paste(class(r$run$error), collapse = "/"), "\n")
    print(r$run$error)
  }
  for (w in r$run$warnings) cat("  warning <", class(w)[1], ">:", conditionMessage(w), "\n")
  quit(status = 0)
}

# ---- the run: chunks in forked children -------------------------------------------------

log_file <- paste0(opt$out, ".tsv")
progress <- file.path(work, "progress")

#' Run cases from..to in this (child) process, appending "S i" before each
#' case and its record after it to `progress`
run_chunk <- function(from, to) {
  con <- file(progress, "a")
  on.exit(close(con))
  for (i in from:to) {
    writeLines(paste0("S\t", i), con)
    flush(con)
    # a failure of the driver itself is recorded as such, not as a crash
    r <- tryCatch(run_case(i), error = function(e) {
      list(i = i, fn = "?", class = "driver error", seconds = NA, args = "",
           problem = conditionMessage(e))
    })
    writeLines(paste0("R\t", record_line(r)), con)
    flush(con)
  }
  invisible(TRUE)
}

read_progress <- function() {
  if (!file.exists(progress)) return(character())
  readLines(progress, warn = FALSE)
}

records <- character()
cols <- c("case", "case_seed", "fn", "class", "seconds", "args", "problem")
# the log grows chunk by chunk (a long run can be read while it runs)
writeLines(paste(cols, collapse = "\t"), log_file)
next_i <- 1L
t_start <- proc.time()[["elapsed"]]
while (next_i <= opt$cases) {
  to <- min(next_i + opt$chunk - 1L, opt$cases)
  unlink(progress)
  job <- parallel::mcparallel(run_chunk(next_i, to), silent = TRUE)
  last_size <- -1
  last_change <- proc.time()[["elapsed"]]
  repeat {
    res <- parallel::mccollect(job, wait = FALSE, timeout = 0.5)
    lines <- read_progress()
    if (!is.null(res)) break
    if (length(lines) != last_size) {
      last_size <- length(lines)
      last_change <- proc.time()[["elapsed"]]
    } else if (proc.time()[["elapsed"]] - last_change > opt$timeout + 20) {
      tools::pskill(job$pid, tools::SIGKILL)
      parallel::mccollect(job, wait = TRUE)
      res <- "killed"
      break
    }
  }
  n_before <- length(records)
  lines <- read_progress()
  done <- lines[startsWith(lines, "R\t")]
  records <- c(records, sub("^R\t", "", done))
  started <- as.integer(sub("^S\t", "", lines[startsWith(lines, "S\t")]))
  finished <- as.integer(sub("\t.*", "", sub("^R\t", "", done)))
  lost <- setdiff(started, finished)
  if (length(lost)) {
    i <- lost[1]
    kind <- if (identical(res, "killed")) "hang" else "crash"
    records <- c(records, paste(i, case_seeds[i], "?", kind, NA, "",
                                paste(kind, "of the R process"), sep = "\t"))
    next_i <- i + 1L
  } else if (length(finished) < to - next_i + 1L) {
    # the child died before its first case
    records <- c(records, paste(next_i, case_seeds[next_i], "?", "crash", NA, "",
                                "the R process died", sep = "\t"))
    next_i <- next_i + 1L
  } else {
    next_i <- to + 1L
  }
  new_records <- utils::tail(records, length(records) - n_before)
  if (length(new_records)) {
    cat(paste0(new_records, "\n"), file = log_file, sep = "", append = TRUE)
  }
  if (next_i %% 1000L < opt$chunk) {
    message(sprintf("%d cases, %.0f s", next_i - 1L, proc.time()[["elapsed"]] - t_start))
  }
}
elapsed <- proc.time()[["elapsed"]] - t_start

# ---- the report -------------------------------------------------------------------------

tab <- utils::read.delim(text = c(paste(cols, collapse = "\t"), records), quote = "",
                         colClasses = "character", na.strings = "NA")
classes <- c("ok", "error", "unclear", "silent-wrong", "unclassed warning", "hang", "crash",
             "driver error")
tab$class <- factor(tab$class, classes)
cat(sprintf("prdcurve fuzz: %d cases, seed %d, %.0f s (%.1f ms a case)\n\n", nrow(tab),
            opt$seed, elapsed, 1000 * elapsed / nrow(tab)))
print(table(tab$class))
cat("\n")
options(width = 160)
by_fn <- table(tab$fn, tab$class)
print(by_fn)
bad <- tab[!tab$class %in% c("ok", "error"), ]
fail_file <- paste0(opt$out, "-failures.tsv")
writeLines(c(paste(c("seed", cols), collapse = "\t"),
             if (nrow(bad)) do.call(paste, c(list(opt$seed), bad, sep = "\t"))), fail_file)
cat(sprintf("\n%d failing cases written to %s (every case: %s)\n", nrow(bad), fail_file, log_file))
if (nrow(bad)) {
  shown <- bad[!duplicated(paste(bad$fn, substr(bad$problem, 1, 60))), ]
  for (j in utils::head(seq_len(nrow(shown)), 40)) {
    cat(sprintf("- case %s %s [%s]: %s\n    %s\n", shown$case[j], shown$fn[j], shown$class[j],
                substr(shown$problem[j], 1, 300), substr(shown$args[j], 1, 300)))
  }
}
unlink(work, recursive = TRUE)
quit(status = if (nrow(bad)) 1L else 0L)
