# The prd_curve class: one validating constructor for every curve of the
# package, a per-curve settings table that survives rbind(),
# dplyr::bind_rows() and subsetting (vctrs methods, as tibble and yardstick
# do), and the one-line-per-curve header.

#' Build one PR curve (the package's only curve constructor)
#'
#' Validates the grid values and adds the two end rows: lambda = 0
#' (precision 0, recall = max_recall) and lambda = Inf (precision =
#' max_precision, recall 0).
#' @param lambda increasing finite positive grid.
#' @param precision,recall values on the grid, in [0, 1].
#' @param max_precision,max_recall the extremes alpha_inf, beta_0.
#' @param method the curve's label (a string).
#' @param model,k optional: the generated set's name and the neighbour
#'   count (columns `model` and `k`).
#' @param info a list of settings from curve_info().
#' @noRd
new_prd_curve <- function(lambda, precision, recall, max_precision,
                          max_recall, method, model = NULL, k = NULL,
                          info = curve_info(), call = rlang::caller_env()) {
  if (!rlang::is_string(method)) {
    prd_abort("A curve's {.field method} must be a single string.", "curve",
              call = call)
  }
  n <- length(lambda)
  ok01 <- function(v) is.numeric(v) && !anyNA(v) && all(v >= 0 & v <= 1)
  if (!is.numeric(lambda) || n < 1L || anyNA(lambda) ||
      any(!is.finite(lambda)) || any(lambda <= 0) || any(diff(lambda) <= 0)) {
    prd_abort("A curve's {.field lambda} grid must be finite, positive and increasing.",
              "curve", call = call)
  }
  if (length(precision) != n || length(recall) != n || !ok01(precision) ||
      !ok01(recall) || !ok01(max_precision) || !ok01(max_recall) ||
      length(max_precision) != 1L || length(max_recall) != 1L) {
    prd_abort(c(
      "The {.val {method}} curve is not a valid PR curve.",
      "x" = "Precision and recall must be numbers in [0, 1], one per lambda."
    ), "curve", call = call)
  }
  cols <- list()
  if (!is.null(model)) cols$model <- as.character(model)
  cols$method <- method
  if (!is.null(k)) cols$k <- as.integer(k)
  cols$lambda <- c(0, as.double(lambda), Inf)
  cols$precision <- c(0, as.double(precision), as.double(max_precision))
  cols$recall <- c(as.double(max_recall), as.double(recall), 0)
  x <- tibble::new_tibble(lapply(cols, rep_len, n + 2L), nrow = n + 2L)
  # (one-row tables built directly: tibble() and vec_cbind() took about 2
  # ms a curve, a tenth of a four-curve call at 2,000 x 256)
  key <- list(model = if (is.null(model)) NA_character_ else model,
              method = method,
              k = if (is.null(k)) NA_integer_ else as.integer(k))
  as_prd_curve(x, tibble::new_tibble(c(key, unclass(info)), nrow = 1L))
}

#' Settings of one curve: one row of the table kept by every prd_curve.
#' @param source the function that made it.
#' @param split the split fraction (0: none), or "rows".
#' @param sizes fit and evaluation sizes (split_sizes()), or the numbers of
#'   real and generated rows (named n_real, n_generated).
#' @param bandwidth kde bandwidths (real, generated), as distances.
#' @param details a list of further settings (delta, std_error, ...).
#' @noRd
curve_info <- function(source = NA_character_, split = NA, sizes = NULL,
                       closed = NA, bandwidth = NULL, angles = NA_integer_,
                       details = list()) {
  z <- function(nm) {
    if (!is.null(sizes) && nm %in% names(sizes)) as.integer(sizes[[nm]]) else
      NA_integer_
  }
  tibble::new_tibble(list(
    source = as.character(source),
    split = if (is.na(split[1])) NA_character_ else as.character(split),
    closed = as.logical(closed),
    n_fit_real = z("fit_real"), n_fit_generated = z("fit_generated"),
    n_eval_real = z("eval_real"), n_eval_generated = z("eval_generated"),
    bandwidth_real = if (is.null(bandwidth)) NA_real_ else unname(bandwidth[1]),
    bandwidth_generated = if (is.null(bandwidth)) NA_real_ else
      unname(bandwidth[length(bandwidth)]),
    angles = as.integer(angles),
    details = list(details),
    replicates = list(NULL),
    divisor = NA_real_,
    real_set = NA_character_,
    real_draws = NA_character_
  ), nrow = 1L)
}

#' Class a tibble as prd_curve with its settings table
#' @noRd
as_prd_curve <- function(x, info) {
  x <- tibble::new_tibble(x, nrow = nrow(x), class = "prd_curve")
  attr(x, "curves") <- info
  x
}

#' Bind a list of prd_curves (vctrs combines their settings tables)
#' @noRd
bind_curves <- function(curves) {
  if (length(curves) == 1L) return(curves[[1]])
  vctrs::vec_rbind(!!!curves)
}

#' Settings of each curve of a PR curve object
#'
#' Every curve made by this package keeps its settings in a table that
#' survives [rbind()], `dplyr::bind_rows()`, `dplyr::filter()` and
#' subsetting: one row per curve, keyed by `model`, `method` and `k` (`NA`
#' where the curve has no such column).
#'
#' @param x A `prd_curve`.
#' @return A tibble with one row per curve present in `x`: `model`,
#'   `method`, `k`, `source` (the function that made it), `split` (the
#'   split fraction as text, `"0"` for none, `"rows"` for explicit rows),
#'   `closed`, `n_fit_real`, `n_fit_generated`, `n_eval_real`,
#'   `n_eval_generated` (set sizes; for curves without a split the fit and
#'   evaluation sizes are the set sizes, for plug-in and truth curves the
#'   numbers of rows or draws), `bandwidth_real`, `bandwidth_generated`
#'   (kde bandwidths, in feature units; the mean over the splits of
#'   `repeats`), `angles`, `details` (a list of
#'   further settings, e.g. `delta` of [prd_truth_gaussian()] or the Monte
#'   Carlo `std_error` of [prd_truth()]; for [prd_curve()]: `hubness` of a
#'   `"knn"` curve, the skewness of the k-occurrence counts of the fit
#'   points (how often each is among the k nearest fit points of an
#'   evaluation point; Radovanovic, Nanopoulos and Ivanovic 2010; counted
#'   in the knn family's own sweep, at every size; 0 when every count is
#'   equal; in the validity scenarios at 10,000 points per set about 2 at
#'   d = 16, where knn is within 0.15 of the true AUC, and 5.5 to 11.7 at
#'   d >= 256, where a few hubs take most of the votes and knn is 0.2 to
#'   1.0 above the truth); `simple_auc` of a neighbour family's curves when
#'   the call has no other family: the AUCs (`mean`, `far`, `near`) of
#'   three O(n d) classifiers, the projection on the difference of the fit
#'   means and the squared distance to the real fit mean (either way), the
#'   mean over the splits of `repeats`, which the `family_disagreement`
#'   warning compares with the curve's;
#'   `shrinkage`, `pooling`, `cross_fit` and `folds` (when cross-fitted)
#'   of the fitted families; `fit_rows` of `"mixture"` (the rows of each
#'   set its EM ran on: in the default a random sample of the fit rows
#'   above 2^21 values a set, see `prd_curve()`); `directions` of `"spectral"` (how many
#'   directions its fits kept, the mean over the folds) and `refined` (the
#'   share of its fits whose narrowest direction the thinnest-slab or
#'   one-sided edge search moved); `atom_columns` of the marginal families; `atoms`
#'   (`"exact"` or `"ignore"`), `grid_columns` (whether the model has
#'   columns on a grid in one set only, or on a coarser grid in one) and, where the exact reading tied
#'   models at AUC 0, `atoms_ignored` (the curve read with the atoms
#'   ignored, a `prd_curve` with its replicates) of the curves read by
#'   the marginal family (see `atoms` of [prd_curve()]);
#'   `families`, `chosen` (the family chosen on each half at each
#'   \eqn{\lambda}), `family_auc` and `half_gap` (each family's |AUC on
#'   one half - AUC on the other|) and `clusters_gain` (the held-out gain,
#'   nats per row, of the clusters test that decides whether `"mixture"`
#'   joins the default families; NA where it did not run: families given,
#'   categorical columns, a set of fewer than 1,000 rows) of `"tightest"`),
#'   `features` (of [prd_curve()]: the names of the feature columns read,
#'   the same for every curve of a call: of a data frame its columns as
#'   selected, a categorical column once by its name, without the
#'   identifier and the columns left out; of a matrix its column names,
#'   `NULL` without), `repeats` (of [prd_curve()]: the number of random
#'   splits its curves average; with more than one, each other detail that
#'   differs between them is their mean, and the choice tables of
#'   `"tightest"` hold every split's rows), `replicates` (the replicate
#'   curves, when computed: replicates 2j - 1 and 2j are the complementary
#'   halves of pair j), `divisor` (c of the section Intervals of
#'   [prd_curve()]: 4 when every set has an even number of rows),
#'   `real_set` (for [prd_curve()]: a fingerprint, [rlang::hash()], of the
#'   real set as the curve read it, the rows in lexicographic order (so the
#'   order they came in does not matter), the categories encoded, before
#'   `standardize`: its dimensions, column sums and 64 rows evenly spaced
#'   in that order) and `real_draws` (a fingerprint of the
#'   real rows that the split and each replicate's half-sample and its
#'   split took); `NA` for other curves. Every model of one call has the
#'   same two; [prd_compare()] pairs curves only where they agree.
#' @section Errors: `prdcurve_error_curve` when `x` is not a `prd_curve`.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(200 * 4), ncol = 4)
#' generated <- matrix(rnorm(200 * 4, mean = 0.5), ncol = 4)
#' both <- rbind(prd_curve(real, generated, method = "kde"),
#'               prd_truth_gaussian(rep(0, 4), c(0.5, 0, 0, 0)))
#' prd_curve_info(both)[, c("model", "method", "k", "source",
#'                          "bandwidth_real")]
#' @export
prd_curve_info <- function(x) {
  if (!inherits(x, "prd_curve")) {
    prd_abort("{.arg x} must be a {.cls prd_curve}.", "curve")
  }
  info <- attr(x, "curves")
  if (is.null(info)) return(curve_info()[0, ])
  keys <- curve_keys(x)
  present <- vctrs::vec_in(info[c("model", "method", "k")], keys)
  info[present, , drop = FALSE]
}

#' The distinct (model, method, k) of a curve's rows (NA where absent)
#' @noRd
curve_keys <- function(x) {
  n <- nrow(x)
  col <- function(nm, na) if (nm %in% names(x)) x[[nm]] else rep(na, n)
  keys <- tibble::new_tibble(list(
    model = as.character(col("model", NA_character_)),
    method = as.character(col("method", NA_character_)),
    k = as.integer(col("k", NA_integer_))), nrow = n)
  vctrs::vec_unique(keys)
}

#' The settings row of one curve (model, method, k), or NULL
#' @noRd
info_of <- function(x, model, method, k) {
  info <- attr(x, "curves")
  if (is.null(info)) return(NULL)
  hit <- which(vctrs::vec_equal(info$model, model, na_equal = TRUE) &
                 info$method == method &
                 vctrs::vec_equal(info$k, as.integer(k), na_equal = TRUE))
  if (!length(hit)) NULL else info[hit[length(hit)], , drop = FALSE]
}

merge_info <- function(x, y) {
  a <- attr(x, "curves")
  b <- attr(y, "curves")
  if (is.null(a)) return(b)
  if (is.null(b)) return(a)
  vctrs::vec_unique(vctrs::vec_rbind(a, b))
}

# ---- vctrs methods: binding curves keeps every curve's settings -------------

#' @importFrom vctrs vec_ptype2 vec_cast
NULL

# The settings table of the most recent combination: dplyr::bind_rows()
# strips the attributes of the combined result before reconstructing it
# from the first input, so dplyr_reconstruct.prd_curve() takes them from
# here.
the <- new.env(parent = emptyenv())

curve_ptype2 <- function(x, y, ...) {
  info <- merge_info(x, y)
  the$last_info <- info
  as_prd_curve(vctrs::tib_ptype2(x, y, ...), info)
}

curve_cast <- function(x, to, ...) {
  out <- vctrs::tib_cast(x, to, ...)
  as_prd_curve(out, merge_info(x, to))
}

#' @method vec_ptype2 prd_curve.prd_curve
#' @export
vec_ptype2.prd_curve.prd_curve <- function(x, y, ...) curve_ptype2(x, y, ...)
#' @method vec_ptype2 prd_curve.tbl_df
#' @export
vec_ptype2.prd_curve.tbl_df <- function(x, y, ...) curve_ptype2(x, y, ...)
#' @method vec_ptype2 tbl_df.prd_curve
#' @export
vec_ptype2.tbl_df.prd_curve <- function(x, y, ...) curve_ptype2(x, y, ...)
#' @method vec_ptype2 prd_curve.data.frame
#' @export
vec_ptype2.prd_curve.data.frame <- function(x, y, ...) curve_ptype2(x, y, ...)
#' @method vec_ptype2 data.frame.prd_curve
#' @export
vec_ptype2.data.frame.prd_curve <- function(x, y, ...) curve_ptype2(x, y, ...)
#' @method vec_cast prd_curve.prd_curve
#' @export
vec_cast.prd_curve.prd_curve <- function(x, to, ...) curve_cast(x, to, ...)
#' @method vec_cast prd_curve.tbl_df
#' @export
vec_cast.prd_curve.tbl_df <- function(x, to, ...) curve_cast(x, to, ...)
#' @method vec_cast prd_curve.data.frame
#' @export
vec_cast.prd_curve.data.frame <- function(x, to, ...) curve_cast(x, to, ...)
#' @method vec_cast tbl_df.prd_curve
#' @export
vec_cast.tbl_df.prd_curve <- function(x, to, ...) vctrs::tib_cast(x, to, ...)
#' @method vec_cast data.frame.prd_curve
#' @export
vec_cast.data.frame.prd_curve <- function(x, to, ...) vctrs::df_cast(x, to, ...)

#' @export
rbind.prd_curve <- function(..., deparse.level = 1) {
  parts <- Filter(Negate(is.null), list(...))
  check_distinct_curves(parts)
  vctrs::vec_rbind(!!!parts)
}

#' Parts of one curve may be bound again (their settings agree); two
#' curves with the same label and other settings (two calls, both
#' "generated") would merge into one: an error (prdcurve_error_curve)
#' naming the labels, pointing to prd_bind()
#' @noRd
check_distinct_curves <- function(parts, call = rlang::caller_env()) {
  infos <- lapply(parts, function(p) {
    if (inherits(p, "prd_curve")) prd_curve_info(p) else NULL
  })
  infos <- Filter(function(i) !is.null(i) && nrow(i), infos)
  if (length(infos) < 2L) return(invisible())
  info <- vctrs::vec_unique(vctrs::vec_rbind(!!!infos))
  keys <- info[c("model", "method", "k")]
  if (!vctrs::vec_duplicate_any(keys)) return(invisible())
  dup <- vctrs::vec_unique(keys[vctrs::vec_duplicate_detect(keys), ])
  labels <- vapply(seq_len(nrow(dup)), function(i) curve_label(dup[i, ]), "")
  prd_abort(c(
    "{.fn rbind} would merge curves of separate calls with the same label into one.",
    "x" = "Two curves each: {.val {labels}}.",
    "i" = "Label them with {.code prd_bind(a = curve1, b = curve2)}, or keep them apart with {.code dplyr::bind_rows(a = curve1, b = curve2, .id = \"run\")}."
  ), "curve", call = call)
}

# ---- printing: one header line per curve ------------------------------------

#' @export
#' @importFrom tibble tbl_sum
tbl_sum.prd_curve <- function(x, ...) {
  keys <- curve_keys(x)
  n_lambda <- if ("lambda" %in% names(x)) length(unique(x$lambda)) else NA
  head <- c("A prd_curve" = paste0(nrow(keys), " curve",
                                   if (nrow(keys) != 1L) "s",
                                   if (!is.na(n_lambda)) paste0(" x ", n_lambda,
                                                               " lambdas")))
  lines <- character()
  for (i in seq_len(min(nrow(keys), 8L))) {
    key <- keys[i, ]
    label <- paste(stats::na.omit(c(key$model, key$method,
                                    if (!is.na(key$k)) paste0("k = ", key$k))),
                   collapse = " / ")
    inf <- info_of(x, key$model, key$method, key$k)
    lines[[label]] <- if (is.null(inf)) "" else describe_info(inf)
  }
  if (nrow(keys) > 8L) lines[["..."]] <- paste(nrow(keys) - 8L, "more curves")
  c(head, lines)
}

#' The number of splits the curves of a prd_curve_info() table average
#' (`repeats` of their details; 1 without it)
#' @noRd
curve_repeats <- function(info) {
  max(1L, unlist(lapply(info$details, `[[`, "repeats")))
}

#' How the default read the real rows of a curve's details `det`: "joined"
#' (the clusters test read them as clustered, held-out gain above 0, and
#' the mixture family joined), "wide" (clustered, too wide for the
#' mixture), or NA (not clustered, not tested, or not the default)
#' @noRd
clustered_read <- function(det) {
  if (!isTRUE(det$clusters_gain > 0)) return(NA_character_)
  if ("mixture" %in% det$families) "joined" else "wide"
}

describe_info <- function(inf) {
  parts <- character()
  if (!is.na(inf$source)) parts <- c(parts, inf$source)
  if (!is.na(inf$split)) {
    parts <- c(parts, if (inf$split == "0") "no split" else
      paste0("split ", inf$split))
  }
  if (!is.na(inf$n_eval_real)) {
    parts <- c(parts, sprintf("evaluation %d real / %d generated",
                              inf$n_eval_real, inf$n_eval_generated))
  }
  if (!is.na(inf$bandwidth_real)) {
    parts <- c(parts, sprintf("bandwidth %s / %s",
                              format(inf$bandwidth_real, digits = 3),
                              format(inf$bandwidth_generated, digits = 3)))
  }
  if (isFALSE(inf$closed)) parts <- c(parts, "open balls")
  det <- inf$details[[1]]
  if (isTRUE(det$repeats > 1L)) {
    parts <- c(parts, paste(det$repeats, "splits averaged"))
  }
  # the default's reading where it is not the banded choice
  # (with several splits, the curve is their mean: "mixed" when some of
  # them are at the ceiling)
  if (identical(det$choice, "ceiling")) {
    parts <- c(parts, "at the ceiling: no family tells the sets apart")
  } else if (identical(det$choice, "mixed")) {
    parts <- c(parts, sprintf("at the ceiling in %d of %d splits",
                              sum(det$choices == "ceiling"),
                              length(det$choices)))
  } else if (identical(det$choice, "single")) {
    fam <- unique(stats::na.omit(det$bands$first))
    parts <- c(parts, paste0(
      if (length(fam) > 1L) "one family a split" else "one family",
      if (length(fam)) paste0(", ", paste(fam, collapse = " or ")),
      " (too few evaluation rows for bands)"))
  }
  # clustered real rows (the default's clusters test): the default can read
  # high there, with or without the mixture (?prd_curve, "mixture")
  clustered <- clustered_read(det)
  if (!is.na(clustered)) {
    parts <- c(parts, if (clustered == "joined")
      "clustered real rows: mixture joined (can still read high)" else
      "clustered real rows, too wide for the mixture (can read high)")
  }
  if (!is.null(det$delta)) {
    parts <- c(parts, paste0("delta = ", format(det$delta, digits = 3)))
  }
  reps <- inf$replicates[[1]]
  if (!is.null(reps)) {
    parts <- c(parts, paste0(length(unique(reps$replicate)),
                             " half-sample replicates"))
  }
  paste(parts, collapse = "; ")
}

# dplyr reconstructs results from the first input's attributes (and strips
# those of the combined data first): keep the settings of every curve the
# result holds, from the template and from the last vctrs combination.
#' @exportS3Method dplyr::dplyr_reconstruct
dplyr_reconstruct.prd_curve <- function(data, template) {
  info <- attr(data, "curves")
  if (is.null(info)) {
    info <- attr(template, "curves")
    if (!is.null(the$last_info)) {
      info <- vctrs::vec_unique(vctrs::vec_rbind(info, the$last_info))
    }
  }
  attrs <- attributes(template)
  attrs$names <- names(data)
  attrs$row.names <- .row_names_info(data, type = 0L)
  attributes(data) <- attrs
  if (!is.null(info)) {
    present <- vctrs::vec_in(info[c("model", "method", "k")], curve_keys(data))
    info <- info[present, , drop = FALSE]
  }
  attr(data, "curves") <- info
  data
}

# dplyr::group_by() builds a new grouped tibble and drops subclasses: keep
# the prd_curve class and its settings, so that summary() of a grouped
# curve is still one row per curve.
#' @exportS3Method dplyr::group_by
group_by.prd_curve <- function(.data, ...) {
  out <- NextMethod()
  if (inherits(out, "grouped_df")) {
    class(out) <- c("grouped_df", "prd_curve",
                    setdiff(class(out), c("grouped_df", "prd_curve")))
    attr(out, "curves") <- attr(.data, "curves")
  }
  out
}
