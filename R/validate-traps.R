# Traps: input that is legal but probably a mistake (copies of rows, label
# columns, grid columns in one set only, tiny sets, memory), each a classed
# warning with its fix; the memory check; equal sizes for the entropies.

#' Two fixed projections of the rows (no random numbers are drawn, so the
#' user's RNG stream is untouched): an n x 2 matrix, in one pass over `x`
#' (src/scan.c). Equal rows have equal keys, and rows with equal keys are
#' compared exactly.
#' @noRd
row_keys <- function(x) {
  if (!is.double(x)) storage.mode(x) <- "double"
  .Call(ffi_row_keys, x)
}

#' For each row of `y`, whether it equals some row of `x` (exactly).
#' Candidates come from equal projections (to a relative 1e-12), then the
#' rows themselves are compared.
#' @noRd
rows_in <- function(y, x, ky = row_keys(y)[, 1], kx = row_keys(x)[, 1]) {
  o <- order(kx)
  ks <- kx[o]
  tol <- 1e-12 * pmax(abs(ky), 1e-300)
  lo <- findInterval(ky - tol, ks, left.open = TRUE) + 1L
  hi <- findInterval(ky + tol, ks)
  hit <- logical(nrow(y))
  some <- which(hi >= lo)
  if (!length(some)) return(hit)
  # the first candidate of every row at once, then the others one by one
  first <- o[lo[some]]
  hit[some] <- rowSums(y[some, , drop = FALSE] != x[first, , drop = FALSE]) == 0
  for (i in some[!hit[some] & hi[some] > lo[some]]) {
    cand <- o[(lo[i] + 1L):min(hi[i], lo[i] + 7L)]
    hit[i] <- any(colSums(t(x[cand, , drop = FALSE]) == y[i, ]) == ncol(x))
  }
  hit
}

#' The number of copies of each row in its own set (itself included): 1
#' for a row without duplicates. Rows are grouped by two fixed projections
#' (to 12 significant digits), which equal rows share; O(n d), also for a
#' collapsed set of many identical rows.
#' @noRd
row_multiplicity <- function(x, keys = row_keys(x)) {
  g <- key_groups(signif(keys, 12))
  tabulate(g)[g]
}

#' The group of each row of a row_keys() matrix: rows with both keys equal
#' share one
#' @noRd
key_groups <- function(k) vctrs::vec_group_id(data.frame(k1 = k[, 1], k2 = k[, 2]))

#' Each model's name as an argument in messages: `arg` for a single set
#' given alone, else arg$name
#' @noRd
model_args <- function(gens, arg = "generated") {
  if (length(gens) == 1L && names(gens) == "generated") return(arg)
  paste0(arg, "$", names(gens))
}

#' Warn when generated rows are exact copies of real rows (memorisation):
#' they count as perfect samples. manifold_samples() flags them one by one.
#' Not where at least half the real rows repeat within the real set (few
#' distinct rows, as in a table of a few categorical columns: every good
#' model then writes rows of the real set, memorised or not), nor for a
#' model whose share of copies is at most copies_baseline_factor times
#' the share a fresh sample of the real set's law copies, read from the
#' real set itself: its odd rows found among its even rows (0 for
#' continuous data; two independent halves of a survey table of six
#' coarse columns shared 19% of their rows, which warned as "memorised").
#' @noRd
warn_copies <- function(real, gens, arg = "generated", keys = NULL) {
  kr <- if (is.null(keys)) row_keys(real)[, 1] else keys[[1L]][, 1]
  if (mean(kr %in% kr[duplicated(kr)]) >= 0.5) return(invisible(integer()))
  counts <- vapply(seq_along(gens), function(i) {
    if (is.null(keys)) return(sum(rows_in(gens[[i]], real)))
    sum(rows_in(gens[[i]], real, keys[[i + 1L]][, 1], keys[[1L]][, 1]))
  }, integer(1))
  names(counts) <- names(gens)
  if (!any(counts > 0L)) return(invisible(counts))
  sizes <- vapply(gens, nrow, integer(1))
  # (positions, not R's RNG: a check draws nothing)
  odd <- seq_along(kr) %% 2L == 1L
  base <- if (length(kr) >= 2L) mean(kr[odd] %in% kr[!odd]) else 0
  warn <- counts > 0L & counts / sizes > copies_baseline_factor * base
  if (!any(warn)) return(invisible(counts))
  labs <- model_args(gens, arg)
  lines <- paste0(labs, ": ", counts, " of ", sizes, " rows (",
                  formatC(100 * counts / sizes, format = "f", digits = 1), "%)")[warn]
  prd_warn(c(
    "Generated rows that are exact copies of real rows (memorised training data?).",
    stats::setNames(lines, rep("x", length(lines))),
    "i" = if (base > 0) paste0(formatC(100 * base, format = "f", digits = 1),
                               "% of the real set's odd rows are copies of its even rows: a fresh sample of the same law copies about that share (warned above ",
                               copies_baseline_factor, " times it)."),
    "i" = "A copy is a perfect sample to every estimator: precision, recall and the curve overstate the model.",
    "i" = "{.fn manifold_samples} flags each (column {.field copy}); remove them, or report their share (authenticity, Alaa et al. 2022)."
  ), "copies")
  invisible(counts)
}

#' How many times the real set's own share of copies (warn_copies()) a
#' model's share must be to be warned of
#' @noRd
copies_baseline_factor <- 2

#' Warn about label-like columns: few distinct whole values while other
#' columns are continuous (a class label used as a feature). Sets whose
#' every column is whole (pixel intensities, counts) are not flagged, nor
#' sets with categorical columns (a data frame of mixed records, as
#' synthpop's: its categories are factors or text, so its whole-valued
#' numbers are counts, and every column is part of the record).
#' @noRd
warn_label_columns <- function(real, gens, real_arg = "real",
                               generated_arg = "generated") {
  d <- ncol(real)
  if (d < 2L || nrow(real) < 10L) return(invisible(character()))
  # (the indicators of categories, R/encode.R)
  if (any(category_columns(real))) return(invisible(character()))
  h <- real[seq_len(min(nrow(real), 64L)), , drop = FALSE]
  whole <- colSums(h != round(h)) == 0
  if (!any(whole) || all(whole) || sum(whole) > d / 2) {
    return(invisible(character()))
  }
  cand <- which(whole)
  # (a constant column, an all-zero unit, is no label: it carries no
  # class; the grid check reports it when the other set varies there)
  few <- vapply(cand, function(j) {
    v <- real[, j]
    levels <- length(unique(v))
    all(v == round(v)) && levels >= 2L && levels <= label_levels &&
      levels < nrow(real) / 2
  }, logical(1))
  cols <- cand[few]
  if (!length(cols)) return(invisible(character()))
  nm <- if (is.null(colnames(real))) paste0("column ", cols) else colnames(real)[cols]
  levels <- vapply(cols, function(j) length(unique(real[, j])), integer(1))
  # "label (10 distinct values)", one per column
  desc <- paste0(nm, " (", levels, " distinct value",
                 ifelse(levels == 1L, "", "s"), ")")
  fix <- features_drop(nm, cols, array_names = is.null(colnames(real)))
  prd_warn(c(
    "{.arg {real_arg}} has {length(cols)} column{?s} of few whole values among continuous features: {desc}.",
    "i" = "A class label or category used as a feature changes every distance (and can reverse the ranking of models).",
    "i" = "Drop {cli::qty(length(cols))}{?it/them} from every set with {.code {fix$code}}, or choose the feature columns with {.arg {fix$arg}}.",
    "i" = "A count (children, visits) is a feature: keep it, and silence this warning with {.code suppressWarnings(..., classes = \"prdcurve_warning_label_column\")}."
  ), "label_column")
  invisible(nm)
}

#' The argument that leaves the columns `nm` (at positions `pos`) out of
#' the features: list(code = "features = -label", "features = c(-a, -b)";
#' on the command line "--features=-label", "--features='c(-a, -b)'"; arg
#' = "features" or "--features"). Columns without names (`array_names`:
#' a matrix's), and on the command line the columns V1, ... of a real set
#' read from an array (prd_cli() sets run_state$cli to "array"), whose
#' option selects by number only, by position.
#' @noRd
features_drop <- function(nm, pos, array_names = FALSE) {
  opt <- run_state$cli
  cli <- isTRUE(opt) || identical(opt, "array")
  drop <- if (array_names) paste0("-", pos) else
    if (identical(opt, "array") && all(grepl("^V[0-9]+$", nm)))
      paste0("-", sub("^V", "", nm)) else
        paste0("-", ifelse(make.names(nm) == nm, nm, paste0("`", nm, "`")))
  drop <- if (length(drop) > 1L) paste0("c(", paste(drop, collapse = ", "), ")") else drop
  code <- if (!cli) paste0("features = ", drop) else
    if (grepl("^-[[:alnum:]._]+$", drop)) paste0("--features=", drop) else
      paste0("--features='", drop, "'")
  list(code = code, arg = if (cli) "--features" else "features")
}

#' Most distinct whole values a label-like column may have
#' @noRd
label_levels <- 20L

#' Fewest rows a set should have for a meaningful curve or metric
#' @noRd
small_set_rows <- 10L

#' Warnings that need `k` and the split: sets too small, k close to the
#' set size, duplicated rows that make k-th neighbour radii 0; and the
#' memory check (an error) before the engine allocates its buffers.
#' `k`: the neighbour counts (validated later by check_k(); skipped here
#' when not whole numbers); `n_curves`: angles x curves stored per model
#' (0 for metrics); `neighbours` FALSE: no neighbour family reads `k` (a
#' curve of fitted families alone), so no warning about it. `self_limit`
#' FALSE: with a split, `k` may reach the smallest fit set's size
#' (entropy_core()), else that size less one (the row itself). `moments`:
#' the small-set warning speaks of moments and kernels (the embedding
#' metrics), not shares. Rows repeated in a set whose every column is
#' categorical or on a grid are atoms of a discrete law, not copies
#' (duplicates_atoms()): `curve` TRUE (prd_curve(), whose families read
#' atoms by their counts) says nothing of them.
#' @noRd
check_sample_traps <- function(sets, k, split = 0, angles = 0L,
                               n_curves = 0L, replicates = 0L,
                               neighbours = TRUE, self_limit = TRUE,
                               moments = FALSE, curve = FALSE,
                               call = rlang::caller_env()) {
  n_real <- nrow(sets$real)
  n_gen <- vapply(sets$generated, nrow, integer(1))
  labs <- if (length(n_gen) == 1L && names(n_gen) == "generated") "generated" else
    paste0("generated$", names(n_gen))
  k_ok <- is_whole(k) && length(k) >= 1L && all(k >= 1)
  # k larger than a set is refused by check_k() with its own class
  if (k_ok && max(k) < min(n_real, n_gen)) {
    check_memory(n_real, n_gen, k, angles, n_curves, replicates, call)
  }
  if (!inputs_checked()) return(invisible())
  sizes <- c(real = n_real, stats::setNames(n_gen, labs))
  small <- sizes[sizes < small_set_rows]
  if (length(small)) {
    lines <- paste0("`", names(small), "` has ", small, " row",
                    ifelse(small == 1, "", "s"), ".")
    prd_warn(c(
      "Too few rows for a meaningful estimate.",
      stats::setNames(lines, rep("x", length(lines))),
      "i" = if (moments) "With so few samples the means, covariances and kernel sums are noise (the covariance of n rows has rank n - 1 at most). Use hundreds of rows per set, or read the result with {.arg replicates} intervals." else
        "With so few samples every share is 0 or 1 by chance (a 3-row set can score AUC 1). Use hundreds of rows per set, or read the result with {.arg replicates} intervals."
    ), "small_sample")
  }
  if (!k_ok || !neighbours) return(invisible())
  frac <- if (is.numeric(split) && length(split) == 1L && is.finite(split) &&
              split > 0 && split < 1) 1 - split else 1
  fit <- floor(frac * sizes)
  kmax <- max(k)
  if (!length(small) && kmax > max(1, min(fit) / 4) && kmax < min(fit)) {
    prd_warn(c(
      "{.arg k} = {kmax} is close to the size of the smallest fit set ({min(fit)} rows).",
      "i" = "Each k-NN ball then holds a large part of its set, and precision, recall and the curve tend to 1 whatever the model.",
      "i" = "Use {.arg k} well below the set size (at most {max(1, floor(min(fit) / 10))} here; the literature uses 3 to 5 on thousands of rows)."
    ), "k_large")
  }
  kmin <- min(k)
  all_sets <- c(list(real = sets$real), stats::setNames(sets$generated, labs))
  dup <- vapply(seq_along(all_sets), function(i) {
    # (the keys prepare_samples() computed, in the same order of sets)
    keys <- sets$keys[[i]]
    if (is.null(keys) || nrow(keys) != nrow(all_sets[[i]])) {
      keys <- row_keys(all_sets[[i]])
    }
    m <- row_multiplicity(all_sets[[i]], keys)
    c(share = mean(m > kmin), need = max(m), rows = length(m),
      distinct = round(sum(1 / m)))
  }, numeric(4))
  colnames(dup) <- names(all_sets)
  bad <- dup["share", ] >= 0.1
  # (a set of categories and whole numbers: atoms, not copies; one row
  # repeated throughout is a collapse, warned about as such)
  atoms <- bad & vapply(seq_along(all_sets), function(i) {
    bad[[i]] && dup["distinct", i] > 1 &&
      all(!is.na(coarse_grid(all_sets[[i]])$e))
  }, logical(1))
  if (any(atoms) && !curve) duplicates_atoms(names(all_sets)[atoms], kmin)
  bad <- bad & !atoms
  if (any(bad)) {
    pct <- formatC(100 * dup["share", bad], format = "f", digits = 0)
    need <- max(dup["need", bad])
    prd_warn(c(
      "Duplicated rows: {pct}% of the rows of {.arg {names(all_sets)[bad]}} have at least {.arg k} = {kmin} exact cop{?y/ies} in their own set.",
      "i" = "Their k-th neighbour distance is 0, so their balls hold only their copies: recall or precision fall towards 0 (and entropies to -Inf).",
      duplicates_advice(dup[, bad, drop = FALSE], need,
                        k_limit(sizes, split, self_limit))
    ), "duplicates")
  }
  invisible()
}

#' The warning (prdcurve_warning_duplicates) for the sets `sets` whose
#' rows repeat because every column is categorical or on a grid (whole
#' numbers): with the k-th neighbour a copy, a ball of radius 0 holds
#' every copy of its row. Precision, recall and coverage then ask whether
#' the other set holds the row's value, as they should on atoms; density
#' counts every copy and the entropies are -Inf. The copies are the law:
#' no advice to remove them.
#' @noRd
duplicates_atoms <- function(sets, kmin) {
  prd_warn(c(
    "Repeated rows in {.arg {sets}}: every column is categorical or whole numbers (on a grid), so the rows are atoms of a discrete law, many with at least {.arg k} = {kmin} cop{?y/ies}.",
    "i" = "A k-NN ball of radius 0 then holds every copy of its row: precision, recall and coverage ask whether the other set holds the row's value, as they should on atoms, but density counts every copy (far above 1 even for two samples of one law) and the entropies are -Inf.",
    "i" = "Keep the copies (they are the distribution): read the PR curve ({.fn prd_curve} reads atoms by their counts), precision, recall and coverage; not density or the entropies."
  ), "duplicates")
}

#' The largest `k` the estimators accept (check_k() in prd_curve(),
#' manifold_core(), entropy_core()): the smallest fit set (split_part():
#' round((1 - split) n) rows; a list split: the rows not evaluated) less
#' one, the row itself (not with a split where `self_limit` is FALSE).
#' @noRd
k_limit <- function(sizes, split, self_limit = TRUE) {
  n_eval <- 0
  if (is.list(split) && all(c("real", "generated") %in% names(split))) {
    n_eval <- c(length(split$real),
                rep(length(split$generated), length(sizes) - 1L))
  } else if (is.numeric(split) && length(split) == 1L &&
             is.finite(split) && split > 0 && split < 1) {
    n_eval <- sizes - split_fit_count(split, sizes)
  }
  min(sizes - n_eval) - as.integer(self_limit || all(n_eval == 0))
}

#' The advice of the duplicates warning: the `k` that sees past every
#' copy (`need`, the copies of the most repeated row), or, when that is
#' above `limit` (the largest k allowed), what works instead. `dup`: the
#' sets' copy counts (need, rows, distinct), one column per set warned of.
#' Formatted here, braces escaped for the warning's cli.
#' @noRd
duplicates_advice <- function(dup, need, limit) {
  if (need <= limit) {
    return(c("i" = "Use {.arg k} of at least {need} (more than the copies of any row), or remove the duplicates with {.fn unique}."))
  }
  # a set that is mostly one row: unique() leaves too few rows to measure
  one <- dup["need", ] > dup["rows", ] / 2
  sets <- colnames(dup)
  out <- c("x" = cli::format_inline(
    "{.arg k} of at least {need} would see past them (more than the copies of any row), but {.arg k} can be at most {limit} here."))
  for (j in which(one)) {
    out <- c(out, "i" = cli::format_inline(
      "{.arg {sets[j]}} is mostly copies of one row ({dup['need', j]} of its {dup['rows', j]} rows): the metrics measure that collapse. If it should vary, check how it was made or read."))
  }
  for (j in which(!one)) {
    out <- c(out, "i" = cli::format_inline(
      "Remove the duplicates of {.arg {sets[j]}} with {.fn unique} ({dup['distinct', j]} distinct rows of {dup['rows', j]})."))
  }
  gsub("}", "}}", gsub("{", "{{", out, fixed = TRUE), fixed = TRUE)
}

#' Refuse calls whose buffers would not fit. The engine streams the
#' distances in tiles: its k-NN heaps are per thread (k doubles each, and
#' the radii of every k), its outputs a few doubles per row and k; so the
#' memory grows with k only through those (measured: 3,000 rows per set,
#' k = 10 and k = 2,500 peak within 25 MB of each other). A curve stores
#' 6 columns of 8 bytes per angle, for the estimate and for each of the
#' `replicates` half-samples. Limit: option prdcurve.memory_limit, in
#' bytes (default 4 GiB).
#' @return The estimate in bytes, invisibly.
#' @noRd
check_memory <- function(n_real, n_gen, k, angles, n_curves, replicates,
                         call = rlang::caller_env()) {
  limit <- getOption("prdcurve.memory_limit", 4 * 1024^3)
  if (!is.numeric(limit) || length(limit) != 1L || is.na(limit)) return(invisible())
  n <- n_real + max(n_gen)
  threads <- max(1L, prd_threads())
  neighbours <- 8 * (4 * as.double(threads) * max(k) + 8 * as.double(n) * length(k))
  reps <- max(0, replicates)
  curves <- 8 * 6 * as.double(angles) * n_curves * length(n_gen) * (1 + reps)
  need <- neighbours + curves
  if (need > limit) {
    gib <- function(b) {
      if (b >= 1024^3) paste0(formatC(b / 1024^3, format = "f", digits = 1), " GiB") else
        paste0(formatC(b / 1024^2, format = "f", digits = 1), " MiB")
    }
    why <- if (neighbours > curves) {
      paste0("The neighbour searches keep ", format_number(max(k)),
             " candidates on each of ", threads, " thread", if (threads > 1) "s",
             " and ", format_number(length(k)), " radi", if (length(k) > 1) "i" else "us",
             " for each of ", format_number(n), " rows.")
    } else {
      paste0(format_number(angles), " angles x ", n_curves, " curve",
             if (n_curves > 1) "s", " per model are stored",
             if (reps > 0) paste0(", for the estimate and each of ",
                                  format_number(reps), " replicates"), ".")
    }
    fix <- c(if (neighbours > curves) "a smaller {.arg k}",
             if (angles > 0) "fewer {.arg angles}",
             if (reps > 0) "fewer {.arg replicates}")
    fix <- paste(fix, collapse = " or ")
    prd_abort(c(
      "This call would need about {gib(need)} of memory, over the limit of {gib(limit)}.",
      "x" = why,
      "i" = paste0("Use ", fix, ", or raise the limit with {.code options(prdcurve.memory_limit = <bytes>)}.")
    ), "memory", call = call)
  }
  invisible(need)
}

#' Entropy estimators depend on the sample sizes: bring every set to the
#' smallest size (random rows, R's RNG), or warn when asked not to.
#' @noRd
equalize_sizes <- function(sets, subsample, split, fn = "entropy_metrics",
                           call = rlang::caller_env()) {
  sizes <- c(nrow(sets$real), vapply(sets$generated, nrow, integer(1)))
  if (length(unique(sizes)) == 1L) return(sets)
  m <- min(sizes)
  if (!subsample || is.list(split)) {
    if (inputs_checked()) {
      prd_warn(c(
        "The sets have different sizes ({.val {sizes}} rows): the k-NN entropy estimators depend on the size, and a model from the same distribution as the data can get values far from 0.",
        "i" = if (is.list(split)) "Explicit {.arg split} rows are kept as given; subsample the sets to a common size before the call." else
          "Use {.code subsample = TRUE} (the default) to draw {m} rows of every set."
      ), "unequal_sizes")
    }
    return(sets)
  }
  take <- function(x) {
    if (nrow(x) == m) return(x)
    # (over the rows in canonical order: whatever order they came in)
    rows <- sort(canonical_order(x)[sample.int(nrow(x), m)])
    ids <- attr(x, "ids")
    out <- x[rows, , drop = FALSE]
    attr(out, "ids") <- if (!is.null(ids)) ids[rows]
    attr(out, "rows") <- rows
    out
  }
  prd_inform(c(
    "Subsampled every set to {m} rows (sizes {.val {sizes}}): the entropy estimators depend on the sample size.",
    "i" = "{.code subsample = FALSE} keeps every row; {.fn set.seed} reproduces the draw."
  ), "subsampled")
  sets$real <- take(sets$real)
  sets$generated <- lapply(sets$generated, take)
  sets$keys <- NULL  # (the row keys were of the full sets)
  sets
}

#' Each generated row's distance to its nearest real row, and whether it is
#' a copy: an exact copy, or nearer to a real row than `copy_ratio` times
#' the median distance of a real row to its nearest other real row (the
#' spirit of the authenticity test of Alaa et al. 2022 and the copying
#' test of Meehan et al. 2020). Two radii-only sweeps of the engine.
#' @noRd
copy_flags <- function(real, generated, copy_ratio = 0.1) {
  n_r <- nrow(real)
  n_g <- nrow(generated)
  s <- new_split(list(integer(), seq_len(n_r)), list(seq_len(n_g), integer()))
  to_real <- engine_neighbours(generated, real, s, 1L, "query_y")$query_y[, 1]
  own <- engine_neighbours(real, real[0, , drop = FALSE],
                           new_split(list(seq_len(n_r), integer())),
                           1L, "own")$own_x[, 1]
  scale <- stats::median(sqrt(own))
  d <- sqrt(pmax(to_real, 0))
  list(distance = d, copy = d == 0 | d <= copy_ratio * scale)
}

#' A failed parallel worker (future's FutureError: a killed or crashed
#' worker) re-raised as a classed error that says how to recover: the plan
#' keeps the dead worker until it is reset.
#' @noRd
with_future_errors <- function(expr, call = rlang::caller_env()) {
  tryCatch(expr, FutureError = function(e) {
    prd_abort(c(
      "A parallel worker of the current {.code future::plan()} failed (killed, out of memory or crashed).",
      "i" = "Later calls fail the same way until the plan is reset: run {.code future::plan(future::sequential)}, or re-create your plan (e.g. {.code future::plan(future::multisession, workers = 2)}), then call again.",
      "i" = "{.code options(prdcurve.future = FALSE)} computes in this session instead."
    ), "future", parent = e, call = call)
  })
}

#' Call a user's sampler or density; its errors come back classed
#' (prdcurve_error_sampler) naming the argument, the original as parent.
#' @noRd
call_user <- function(f, x, arg, call = rlang::caller_env()) {
  withCallingHandlers(f(x), error = function(e) {
    if (inherits(e, "prdcurve_error")) return()
    prd_abort(c("{.arg {arg}} failed when called by {.fn prd_truth}.",
                "i" = "It is called with {if (is.matrix(x)) paste0('a ', nrow(x), ' x ', ncol(x), ' matrix of draws') else paste0('n = ', x)}."),
              "sampler", parent = e, call = call)
  })
}

#' prd_compare(): models with different numbers of generated rows differ
#' partly because of their sizes (every estimator depends on n).
#' @noRd
warn_model_sizes <- function(x, models) {
  if (!inputs_checked()) return(invisible())
  sizes <- if (inherits(x, "prd_curve")) {
    info <- prd_curve_info(x)
    info <- info[!is.na(info$model), , drop = FALSE]
    tot <- info$n_fit_generated + ifelse(info$split %in% "0", 0L,
                                         info$n_eval_generated)
    tapply(tot, info$model, max)
  } else {
    attr(x, "model_sizes")
  }
  sizes <- sizes[names(sizes) %in% models]
  if (length(sizes) < 2L || anyNA(sizes) || length(unique(sizes)) == 1L) {
    return(invisible())
  }
  shown <- paste0(names(sizes), ": ", sizes)
  prd_warn(c(
    "The models have different numbers of generated rows ({shown}).",
    "i" = "Every estimator depends on the sample size, so part of each difference comes from the sizes, not the models.",
    "i" = "Draw the same number of rows from every model before computing, e.g. {.code lapply(models, function(g) g[sample(nrow(g), {min(sizes)}), ])} ({.fn entropy_metrics} does it with {.code subsample = TRUE})."
  ), "unequal_sizes")
  invisible()
}

#' The warning (prdcurve_warning_scale, fields `set` and `ratio`) that the
#' columns of the sets `sets` have very different scales: in each, the
#' largest standard deviation is `ratio` times the median one.
#' prepare_samples() gathers those of every set into one.
#' @noRd
warn_scales <- function(sets, ratio) {
  times <- if (length(ratio) == 1L) format_number(ratio, digits = 3) else
    paste(format_number(min(ratio), digits = 3), "to",
          format_number(max(ratio), digits = 3))
  prd_warn(c(
    "The columns of {.arg {sets}} have very different scales: the largest standard deviation is {times} times the median one.",
    "i" = "Euclidean distances are then dominated by the largest columns; consider {.code standardize = \"real\"} ({.code --standardize} on the command line)."
  ), "scale", set = sets, ratio = ratio)
}
