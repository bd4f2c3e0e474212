# The registry of prd_curve()'s curve families (DESIGN.md rule 14). A
# family is one entry that declares what it needs:
#
# - kind "neighbour": an engine estimator (`estimator`, a row of the
#   engine's estimator table) that counts the evidences (a, b) of every
#   evaluation row; curve_estimates() reads them.
# - kind "fitted": a classifier fitted on fit rows and scored on evaluation
#   rows (high = "generated"). `fit(real, generated, fx, fy, n_score,
#   parts, call)` fits it on the rows fx of real and fy of generated
#   (`parts()` gives their covariance parts, cov_parts(), formed once for
#   every family of a fold that asks) and returns list(score = function(Z,
#   rows), settings = named list of numbers). That is all a new fitted
#   family needs: fitted_scores() then fits it fold by fold. `path` names
#   an optional faster way crossfit.R offers, declared here and never read
#   from the name: "parts" (fitted from the covariances, `fit_parts(p,
#   n_score, call, fit_rows)`, so the fold moments serve every fold;
#   `fit_rows(j)` gives list(X = set j, rows = its fit rows' positions)
#   where a fit also reads the rows),
#   "stacked" (the stacked logistic fit over two inner discriminants),
#   "cells" (every fold's scores at once from the rows' cells,
#   `cells(real, generated, cells)`; such a family needs no `fit`), "rows"
#   (no faster way).
# - kind "combined": "tightest", which reads the others.
#
# Any family may set `noise_weight`, the weight of its noise in the choice
# of "tightest" (R/tightest.R: tightest_noise_weights(); NULL: the
# package's tightest_penalty). A fitted family sets `span = TRUE` when its
# fit and scores read the rows only through the inner products of their
# differences and the number of columns d (cov_parts()' dual form): where
# the two sets have fewer rows than columns it is then fitted on the rows'
# coordinates in their span (span_sets(), R/crossfit.R), with d kept.
#
# The name lists, the default families of "tightest", the disagreement
# warning's reasons, the command line's --method help and the family table
# of ?prd_curve are built from the registry. An unknown family is a classed
# error (check_methods(), family_entry()).

family_env <- new.env(parent = emptyenv())
family_env$entries <- list()

#' Add (or replace) a curve family: an entry as described at the top of
#' R/families.R. Returns the old entry of that name (NULL if none),
#' invisibly.
#' @noRd
register_family <- function(name, kind = c("neighbour", "fitted", "combined"),
                            summary, reason, default = FALSE,
                            estimator = NULL, fit = NULL,
                            path = c("rows", "parts", "stacked", "cells"),
                            fit_parts = NULL, cells = NULL,
                            solve_all_folds = FALSE, min_fit_rows = 2L,
                            noise_weight = NULL, span = FALSE) {
  kind <- match.arg(kind)
  path <- match.arg(path)
  stopifnot(is.character(name), length(name) == 1L, nzchar(name),
            is.character(summary), is.character(reason) || is.function(reason),
            is.null(noise_weight) || (is.numeric(noise_weight) &&
                                        length(noise_weight) == 1L &&
                                        noise_weight >= 0))
  if (kind == "neighbour") stopifnot(is.character(estimator))
  if (kind == "fitted") {
    stopifnot(path == "cells" || is.function(fit),
              path != "parts" || is.function(fit_parts),
              path != "cells" || is.function(cells))
  }
  old <- family_env$entries[[name]]
  family_env$entries[[name]] <- list(
    name = name, kind = kind, summary = summary, reason = reason,
    default = isTRUE(default), estimator = estimator, fit = fit,
    path = if (kind == "fitted") path else NA_character_,
    fit_parts = fit_parts, cells = cells,
    solve_all_folds = isTRUE(solve_all_folds),
    min_fit_rows = as.integer(min_fit_rows), noise_weight = noise_weight,
    span = kind == "fitted" && isTRUE(span)
  )
  invisible(old)
}

#' Remove a family (tests' toy families)
#' @noRd
unregister_family <- function(name) {
  family_env$entries[[name]] <- NULL
  invisible()
}

#' The names of the registered families, in registration order: all, or
#' of the kinds `kind`; `default` TRUE: those "tightest" combines by
#' default.
#' @noRd
family_names <- function(kind = NULL, default = NULL) {
  e <- family_env$entries
  keep <- vapply(e, function(x) {
    (is.null(kind) || x$kind %in% kind) &&
      (is.null(default) || x$default == default)
  }, logical(1))
  names(e)[keep]
}

#' One family's entry; an unknown name is a classed error.
#' @noRd
family_entry <- function(name, call = rlang::caller_env()) {
  e <- family_env$entries[[name]]
  if (is.null(e)) {
    prd_abort(c("{.val {name}} is not a curve family.",
                "i" = "The families: {.val {family_names()}}."),
              "argument", call = call)
  }
  e
}

#' The families' names and summaries as a markdown table (?prd_curve).
#' @noRd
family_table <- function() {
  e <- family_env$entries
  paste0(c("| family | kind | in the default | what it is |",
           "|---|---|---|---|",
           vapply(e, function(x) {
             sprintf("| `\"%s\"` | %s | %s | %s |", x$name, x$kind,
                     if (x$default) "yes" else "", x$summary)
           }, "")), collapse = "\n")
}

#' The names of the registered families of `kind` (all by default) as a
#' markdown list for the help pages: `"knn"`, `"kde"` and `"ipr"`.
#' @noRd
family_names_doc <- function(kind = NULL) {
  x <- paste0("`\"", family_names(kind), "\"`")
  if (length(x) < 2L) return(x)
  paste0(paste(x[-length(x)], collapse = ", "), " and ", x[length(x)])
}

#' ?prd_curve's `method`: every registered family by kind, the default
#' first (R/curve.R), so that the list follows the registry.
#' @noRd
family_methods_doc <- function() {
  default <- eval(formals(prd_curve)$method)
  nb <- family_names("neighbour")
  q <- function(x) paste0("`\"", x, "\"`", collapse = ", ")
  combined <- setdiff(family_names("combined"), default)
  paste0(
    "One or more of ", q(default), " (default; the combined curve), ",
    if (length(combined)) paste0(q(combined), ", "),
    "the neighbour families ", family_names_doc("neighbour"), ", and the ",
    "fitted families ", family_names_doc("fitted"), " (the table in the ",
    "section \"The curve families\"). The neighbour families (the default ",
    "of earlier versions) remain exact to the authors' code: ask for them ",
    "by name, `method = c(", paste0("\"", nb, "\"", collapse = ", "), ")`.")
}

#' Why a family's curve can lie far above another's: a sentence for the
#' disagreement warning. `fixed`: a kde curve of a given bandwidth (its k
#' NA), whose balls are the bandwidth's, not the data's.
#' @noRd
family_reason <- function(method, d, hubness = NA_real_, fixed = FALSE) {
  if (isTRUE(fixed) && method == "kde") {
    return("Its balls have the given {.arg bandwidth}: much below the distances between neighbouring rows most are empty, much above most hold every fit row, and such rows' scores say nothing of the sets; compare the default rule ({.code bandwidth = NULL}).")
  }
  r <- family_entry(method)$reason
  if (is.function(r)) r(d, hubness) else r
}

neighbour_reason <- function(d, hubness) {
  if (d < 64) {
    return("Neighbour classifiers are noisy with few points per neighbourhood.")
  }
  hub <- if (is.finite(hubness)) {
    paste0(" Here the skewness of the k-occurrence counts is ",
           format(round(hubness, 1), nsmall = 1), " (about 2 where knn",
           " was close to the truth in the validity suite, 5.5 to 12",
           " where it collapsed).")
  } else ""
  paste0("Neighbour classifiers are weak in ", d, " dimensions with a few",
         " thousand points, and their votes collapse under hubness (a few",
         " fit points are the neighbours of most evaluation points).", hub)
}

# ---- the built-in families -------------------------------------------------

#' The weight of the mixture family's noise in the choice of "tightest"
#' (tightest_penalty for the others). The family joins the default only
#' where the real rows test as clustered (mixture_clustered()), which is
#' itself evidence for it, and on clustered rows its curve differs more
#' between the halves of the evaluation rows than the smoother families'
#' (its log-likelihood ratio changes from one cluster to the next, a few
#' rows each), so four times its noise handed the bands to looser
#' families. Measured by choosing again from the same calls' envelopes
#' (the validity kinds clusters, clusters_lowrank, manifold and heavy_t3
#' at d = 64 and 256 with 2,000 and 5,000 points per set and at d = 512
#' with 5,000, two draws: 40 calls, the mixture in 38), mean |AUC error|
#' with weights 4 / 2 / 1 / 0: 0.056 / 0.055 / 0.053 / 0.053; on the two
#' clusters groups at 5,000 points per set 0.082 / 0.076 / 0.073 / 0.072
#' (with weight 1 no model worse by more than 0.001, lowrank_drop at d =
#' 512 0.096 to 0.080), on the manifold and heavy_t3 0.017 / 0.018 / 0.018
#' / 0.018 (the worst model 0.033 worse: t3 coordinates 10% wider at d =
#' 256, 2,000 per set, one draw). Weight 0 (no charge for its noise) read
#' worse than 1 on heavy_t3 at d = 64 (0.022 against 0.021).
#' @noRd
mixture_noise_weight <- 1

#' The weight of the spectral family's noise in the choice of "tightest".
#' Its directions are kept only beyond the bulk edges of two samples of one
#' law, so a curve of it below the others is seldom chance, but near the
#' corner of a truncation's rectangle it differs between the halves more
#' than the smoother families' curves, and four times that handed a band to
#' a looser family on one half. Measured by choosing again from the same
#' calls' envelopes (bench/noise-weight.R --family spectral: the validity
#' groups truncation, clusters, clusters_lowrank, manifold, heavy_laplace,
#' gauss and aniso at d = 64 with 2,000 and 5,000 points per set and at d
#' = 256 and 512 with 5,000, two draws: 56 calls, the family in 48), mean
#' |AUC error| with weights 4 / 3 / 2 / 1 / 0: 0.0269 / 0.0268 / 0.0265 /
#' 0.0269 / 0.0279; on the Gaussian groups 0.0108 / 0.0107 / 0.0106 /
#' 0.0115 / 0.0135, on truncation at d = 64, 2,000 per set 0.043 / 0.044 /
#' 0.033 / 0.033 / 0.033 (a slab read +0.107 with 4, +0.040 with 2); no
#' group's mean at any d and size worse with 2 than with 4 by more than
#' 0.0003, no model's |AUC error| by more than 0.003.
#' @noRd
spectral_noise_weight <- 2

register_family("knn", "neighbour", estimator = "knn", default = TRUE,
                reason = neighbour_reason,
                summary = "k-nearest-neighbour vote among the pooled fit rows (Sykes et al. 2024, section 3.1)")
register_family("kde", "neighbour", estimator = "kde",
                reason = neighbour_reason,
                summary = "Parzen (uniform-kernel) counts with the bandwidth of `k`, or a given `bandwidth` (Sykes et al. 2024)")
register_family("ipr", "neighbour", estimator = "ipr",
                reason = neighbour_reason,
                summary = "improved precision-recall balls (Kynkaanniemi et al. 2019)")
register_family("coverage", "neighbour", estimator = "coverage",
                default = TRUE, reason = neighbour_reason,
                summary = "coverage balls about the real fit rows (Naeem et al. 2020)")
register_family(
  "linear", "fitted", path = "parts", solve_all_folds = TRUE, span = TRUE,
  fit = function(real, generated, fx, fy, n_score, parts, call) {
    fit_linear(parts(), call = call)
  },
  fit_parts = function(p, n_score, call, fit_rows) fit_linear(p, call = call),
  reason = "A linear classifier does not see changes of dispersion or shape.",
  summary = "linear discriminant with a Ledoit-Wolf (2004) shrunk pooled covariance"
)
register_family(
  "quadratic", "fitted", default = TRUE, path = "parts", span = TRUE,
  fit = function(real, generated, fx, fy, n_score, parts, call) {
    fit_quadratic(parts(), n_score = n_score, call = call)
  },
  fit_parts = function(p, n_score, call, fit_rows) {
    fit_quadratic(p, n_score = n_score, call = call)
  },
  reason = "A Gaussian quadratic classifier misses structure that is not in the first two moments (modes, manifolds, heavy tails).",
  summary = "regularised quadratic discriminant (Friedman 1989)"
)
register_family(
  "stacked", "fitted", default = TRUE, path = "stacked", min_fit_rows = 4L,
  span = TRUE,
  fit = function(real, generated, fx, fy, n_score, parts, call) {
    fit_stacked(real, generated, fx, fy, call = call)
  },
  reason = "A logistic fit on three features of the linear discriminant misses structure those features do not carry.",
  summary = "logistic regression on splines of the linear score and the distances to both means"
)
register_family(
  "marginal", "fitted", path = "cells",
  cells = function(real, generated, cells) {
    marginal_scores(real, generated, cells)
  },
  reason = "A per-coordinate classifier misses dependence between the coordinates (directions other than the axes), and its noise adds up over many coordinates.",
  summary = "per-coordinate histograms with shrunk log-ratios (naive Bayes)"
)
register_family(
  "logit", "fitted", path = "rows",
  fit = function(real, generated, fx, fy, n_score, parts, call) {
    fit_logit(real, generated, fx, fy, maxorder = logit_family_order(ncol(real)),
              call = call)
  },
  reason = "A logistic regression on the columns and their pairwise products misses interactions of higher order and non-linear effects of continuous columns.",
  summary = "synthpop's propensity model: logistic regression on the columns and their pairwise products (maxorder 1; main effects alone above 27 columns); in the default when a data frame has categorical columns"
)
register_family(
  "interaction", "fitted", path = "cells", min_fit_rows = 4L,
  cells = function(real, generated, cells) {
    interaction_scores(real, generated, cells)
  },
  reason = "A logistic regression on the terms that differ most between the sets misses effects too weak to pass its screening and interactions of continuous columns with each other.",
  summary = "logistic regression on the continuous columns, their squares, the categories and the categories' products with each continuous column and its square, screened term by term (Fan and Lv 2008); in the default when a data frame has categorical columns"
)
register_family(
  "mixture", "fitted", path = "cells", min_fit_rows = 4L,
  noise_weight = mixture_noise_weight,
  cells = function(real, generated, cells) {
    mixture_cells(real, generated, cells, call = NULL,
                  fit_rows = run_state$mixture_fit_rows)
  },
  reason = "A mixture of a few Gaussians with shared centres, spherical or with four directions of large spread each, misses clusters spread along many directions and structure finer than its components.",
  summary = "Gaussian mixtures with shared centres, spherical or low-rank components, one set of weights and spreads per set, fitted by EM and scored by the log-likelihood ratio (mixture discriminant analysis, Hastie and Tibshirani 1996); for clustered data, in the default when the real rows are clustered (eight spherical components fit held-out rows, whitened, or 16 their leading 16 principal components, better than one Gaussian), every set has at least 1,000 rows and the real set at most 1,024 columns (above 5,000 rows its EM on a sample of 2^21 values, at least 2,500 rows, of each set's fit rows): 3.0 s at 5,000 x 256 (knn 0.11 s), 47 s at 10,000 x 2,048 (knn 3.1 s)"
)
register_family(
  "mixture16", "fitted", path = "cells", min_fit_rows = 4L,
  noise_weight = mixture_noise_weight,
  cells = function(real, generated, cells) {
    mixture_cells(real, generated, cells, call = NULL,
                  fit_rows = run_state$mixture_fit_rows,
                  components = mixture_many_components, forms = "lowrank",
                  step_up = FALSE)
  },
  reason = "Sixteen low-rank Gaussians with shared centres miss clusters spread along many directions and, on few rows, read their own noise.",
  summary = "the mixture family with its choice fixed at 16 low-rank components (no choice, no step-up): beside \"mixture\" in the default on clustered data up to 512 columns, where the choice among candidates whose held-out losses differ by less than their noise takes too few components to separate the classes a model drops"
)
register_family(
  "smooth_marginal", "fitted", default = TRUE, path = "cells",
  min_fit_rows = 4L,
  cells = function(real, generated, cells) {
    smooth_marginal_cells(real, generated, cells, call = NULL)
  },
  reason = "A per-coordinate classifier misses dependence between the coordinates.",
  summary = "per-coordinate histograms smoothed by a Gaussian kernel, each coordinate's log-ratio shrunk (James-Stein) toward 0 or toward the coordinates' common log-ratio, as cross-validation on the fit rows chooses; for independent (heavy-tailed) coordinates"
)
register_family(
  "spectral", "fitted", path = "parts", noise_weight = spectral_noise_weight,
  fit = function(real, generated, fx, fy, n_score, parts, call) {
    fit_spectral(parts(), call = call, fit_rows = function(j) {
      list(X = if (j == 1L) real else generated, rows = if (j == 1L) fx else fy)
    })
  },
  fit_parts = function(p, n_score, call, fit_rows) {
    fit_spectral(p, call = call, fit_rows = fit_rows)
  },
  reason = "A Gaussian classifier on the few directions whose spread differs beyond the noise misses changes of the means elsewhere, of shape and of many small spreads.",
  summary = "the Gaussian log-likelihood ratio on the generalised eigenvectors of the two covariances whose eigenvalues leave the bulk of Wachter's (1980) law (Fukunaga 1990, chapter 10): a change of spread along a few directions (a truncated slab), which the quadratic family's shrinkage and noise hide; where the generated rows along the narrowest direction are flatter than the real ones, that direction moved to the generated rows' thinnest L^8 width (a local search); in the default up to 512 columns with at least 8 rows a column in every set, no categorical columns and no direction kept between two random halves of the real rows (laws with four moments)"
)
register_family(
  "tightest", "combined",
  reason = "The combined curve picks among its families with noise; compare their curves.",
  summary = "the families' curves combined: on one half of the evaluation rows the lowest is chosen, read on the other (the default)"
)

fitted_methods <- function() family_names("fitted")
neighbour_methods <- function() family_names("neighbour")
curve_methods <- function() family_names()
tightest_default <- function() family_names(c("neighbour", "fitted"), default = TRUE)

#' The logit family's maxorder: pairwise products (1) while the model has at
#' most logit_max_params parameters (d <= 27), else main effects alone (0).
#' @noRd
logit_family_order <- function(d) {
  if (1 + d + d * (d - 1) / 2 <= logit_max_params) 1L else 0L
}

#' The default families of "tightest" for these sets: the registry's, and
#' when the sets have categorical columns (R/encode.R) the logit family
#' (when its main effects fit in logit_max_params parameters) and the
#' interaction family (when its candidate terms, with the squares of the
#' varying terms, are at most interaction_max_candidates); without
#' categorical columns, the mixture family when every set has at least
#' mixture_default_rows rows (`rows`: the fewest of any set), the real set
#' at most mixture_default_cols columns (above 5,000 rows the EM runs on a
#' sample, mixture_fit_rows_max()), and its rows are clustered
#' (mixture_clustered()); where the test ran, the families carry its
#' held-out gain (attribute `clusters_gain`: the result's details, and
#' prd_curve()'s warning where it is positive and the mixture left out).
#' @noRd
tightest_families <- function(real, rows = nrow(real)) {
  fams <- tightest_default()
  ind <- category_columns(real)
  test <- NULL
  if (!any(ind) && rows >= mixture_default_rows) {
    test <- mixture_clustered(real)
    if (test$clustered && ncol(real) <= mixture_default_cols) {
      fams <- c(fams, "mixture",
                if (ncol(real) <= mixture_many_cols) "mixture16")
    }
  }
  if (!any(ind) && ncol(real) <= spectral_default_dim &&
      rows >= spectral_default_rows_per_dim * ncol(real) &&
      spectral_self_null(real)) {
    fams <- c(fams, "spectral")
  }
  if (any(ind) && ncol(real) + 1 <= logit_max_params) {
    fams <- c(fams, "logit")
  }
  if (any(ind)) {
    b <- sum(ind)
    c <- ncol(real) - b
    if (2 * c + b + 2 * b * c <= interaction_max_candidates) {
      fams <- c(fams, "interaction")
    }
  }
  if (!is.null(test)) attr(fams, "clusters_gain") <- test$gain
  fams
}
