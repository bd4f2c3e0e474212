# The propensity-score mean squared error pMSE and its standardised ratio
# S_pMSE (Woo, Reiter, Oganian and Karr 2009; Snoke, Raab, Nowok, Dibben
# and Slavkovic 2018), as synthpop's utility.gen(method = "logit"): the
# logit model of R/family-logit.R fitted on every row of both sets, its
# categorical columns by treatment contrasts (pmse_terms()).

#' Propensity-score utility of generated sets: pMSE and S_pMSE
#'
#' The general utility measure of synthpop's `utility.gen(method =
#' "logit")`: the real and a generated set are stacked, a logistic
#' regression predicts which set each row comes from (1 = generated), and
#' the propensity scores \eqn{\hat p_i} of all \eqn{N = n + m} rows (n
#' real, m generated) are compared with the share of generated rows
#' \eqn{c = m / N}:
#' \deqn{pMSE = \frac{1}{N} \sum_{i=1}^{N} (\hat p_i - c)^2}
#' (Woo et al. 2009, eq. 1; Snoke et al. 2018, eq. 1). It is 0 when the
#' model cannot tell the sets apart and \eqn{c (1 - c)} (1/4 for sets of
#' equal size) when it separates them. Under the null hypothesis
#' that both sets are samples of one law, its expectation for a logit
#' model with k parameters is \eqn{(k - 1)(1 - c)^2 c / N} (Snoke et al.
#' 2018, section 3.1), and \eqn{S\_pMSE = pMSE / ((k - 1)(1 - c)^2 c / N)}
#' is about 1 for a generator as good as a fresh sample (Snoke et al.
#' 2018 suggest values below 10 as good utility). That null expectation
#' holds for a model whose parameters are all estimable: with many rare
#' categories (a factor of 60 levels of falling frequency) a fresh sample
#' of 4,000 rows read about 2.5, so compare models with each other and with
#' a fresh sample, not with 1.
#'
#' The model: an intercept, every feature column and, for `maxorder` >= 1,
#' every product of up to `maxorder` + 1 distinct columns (synthpop's
#' formula `t ~ .^(maxorder + 1)`; `maxorder = 0`: `t ~ .`), fitted by
#' maximum likelihood with [stats::glm.fit()] (at most 200 iterations,
#' convergence at a relative change of the deviance of 1e-8, as synthpop).
#' Categorical columns (factors, ordered factors, logicals, characters)
#' enter as R's treatment contrasts, as in synthpop's [stats::glm()]: the
#' indicators of the categories that occur in the two sets but one, the
#' reference (the first in the C locale; the choice changes no propensity
#' score), and a product term of categorical columns is every product of
#' one indicator of each (never two of one column). A missing value is a
#' category (synthpop adds it as a level when the real set has missing
#' values; where only the generated set has them, synthpop's glm drops
#' those rows, and here they are a category). So a column of L categories
#' has L - 1 parameters, a number 1, and the model's parameters, the
#' intercept included, number \eqn{1 + \sum_{terms} \prod_{j \in term}
#' (L_j - 1)} (\eqn{L_j - 1 = 1} for a number; synthpop's count): with a
#' number and columns of 3 and 2 categories,
#' 1 + (1 + 2 + 1) + (2 + 1 + 2) = 10 at `maxorder = 1`. Products that are
#' 0 on every row (categories never seen together) are left out of the
#' model and of that count, and aliased columns (categories always seen
#' together) are left out of the fit; k, the model's rank, is then
#' synthpop's count of coefficients that are not `NA`, and the propensity
#' scores are synthpop's.
#'
#' @param real The real samples: a numeric matrix or a data frame, one row
#'   per sample (n rows).
#' @param generated The generated samples (m rows, the same columns), or
#'   several: a named list of sample sets or a data frame grouped by a
#'   model column (`dplyr::group_by()`); each is compared with `real` on
#'   its own. A synthpop object (`synthpop::syn()`) is its synthetic data,
#'   its missing codes (`cont.na`) read as synthpop's `utility.gen()`
#'   reads them (see [prd_curve()]).
#' @param maxorder The highest order of interactions: 0 (main effects
#'   only) or a whole number >= 1 (products of up to `maxorder` + 1
#'   columns). Default 1, synthpop's default.
#' @param features,id Columns of data-frame inputs to use as features, and
#'   an identifier column that is not one, as in [prd_curve()] (default:
#'   every numeric and categorical column).
#' @param max_params The most parameters (the intercept included) the
#'   model may have: a whole number >= 1. Default 400, synthpop's
#'   `max.params`; raise it, as synthpop allows, for a larger model (10
#'   columns of SD2011 at `maxorder = 1`: 695 parameters), which takes
#'   longer and may not converge.
#' @return A tibble of class `prd_metrics` with columns `model`, `metric`
#'   (`"pmse"` and `"s_pmse"`), `k` (`NA`: no neighbours) and `value`, two
#'   rows per generated set; attributes `maxorder` and `parameters` (k of
#'   each model, named by model). `s_pmse` is `NA` when no column varies
#'   (k = 1: the expectation is 0).
#' @section Errors: `prdcurve_error_input` when `maxorder` is not a whole
#'   number >= 0, for a bad `max_params`, when the model would have more
#'   than `max_params` parameters (counted without the products that are 0 on
#'   every row, which synthpop counts), and for the sample sets' errors of
#'   [prd_curve()] (a missing category is a category of its own, a
#'   missing number an indicator beside the column, as in synthpop, whose
#'   pMSE and parameters they give: on 1,000 rows of SD2011 with income and
#'   height missing in 139 and 8, 0.003905 with 43 parameters at
#'   `maxorder = 1`; synthpop sets the missing value 0, here the real
#'   median, which the indicator's coefficient absorbs). A warning of class
#'   `prdcurve_warning_small_sample` when the model has fewer than 3 rows
#'   of the smaller set per parameter: it then nears fitting the rows
#'   themselves, and pMSE its maximum, whatever the model (16 rows of
#'   `mtcars` against a synthpop copy, 67 parameters: 0.250). A warning of
#'   class `prdcurve_warning_convergence` when a fit's deviance is above
#'   the intercept-only model's (the fit diverged: its pMSE is not the
#'   model's).
#' @references Woo, M.-J., Reiter, J. P., Oganian, A. and Karr, A. F.
#'   (2009). Global measures of data utility for microdata masked for
#'   disclosure limitation. Journal of Privacy and Confidentiality 1(1),
#'   111-124, eq. 1. doi:10.29012/jpc.v1i1.568.
#'
#'   Snoke, J., Raab, G. M., Nowok, B., Dibben, C. and Slavkovic, A.
#'   (2018). General and specific utility measures for synthetic data.
#'   Journal of the Royal Statistical Society A 181(3), 663-688, eq. 1 and
#'   section 3.1. doi:10.1111/rssa.12358.
#' @examples
#' set.seed(1)
#' real <- data.frame(x = rnorm(200), g = sample(c("a", "b"), 200, TRUE))
#' gen <- data.frame(x = rnorm(200, 0.5), g = sample(c("a", "b"), 200, TRUE))
#' pmse_stats(real, gen, maxorder = 0)
#' @export
pmse_stats <- function(real, generated, maxorder = 1, features = NULL,
                       id = NULL, max_params = 400) {
  maxorder <- check_maxorder(maxorder)
  max_params <- check_max_params(max_params)
  # (the logit model is invariant to the columns' scales: no scale warning)
  sets <- prepare_samples(real, generated, rlang::enquo(features),
                          rlang::enquo(id), check_scale = FALSE)
  rows <- lapply(names(sets$generated), function(nm) {
    s <- pmse_one(sets$real, sets$generated[[nm]], maxorder,
                  max_params = max_params)
    tibble::tibble(model = nm, metric = c("pmse", "s_pmse"),
                   k = NA_integer_, value = c(s$pmse, s$s_pmse),
                   parameters = s$parameters)
  })
  values <- vctrs::vec_rbind(!!!rows)
  params <- values$parameters[values$metric == "pmse"]
  names(params) <- values$model[values$metric == "pmse"]
  new_prd_metrics(values, maxorder = maxorder, parameters = params)
}

#' pMSE and S_pMSE of one generated set (pmse_stats()); `encoding`: the
#' columns' encoding (encode_categories(), R/encode.R), NULL for numeric
#' columns only
#' @return list(pmse, s_pmse, parameters, fitted)
#' @noRd
pmse_one <- function(real, generated, maxorder,
                     encoding = attr(real, "encoding"),
                     max_params = logit_max_params,
                     call = rlang::caller_env()) {
  X <- rbind(real, generated)
  if (!is.double(X)) storage.mode(X) <- "double"
  n <- nrow(real)
  m <- nrow(generated)
  N <- n + m
  cc <- m / N
  model <- pmse_terms(X, encoding, maxorder, max_params = max_params,
                      call = call)
  terms <- logit_fit_terms(model$X, maxorder, max_params = max_params,
                           terms = model$terms, raisable = TRUE, call = call)
  D <- logit_design(model$X, terms)
  warn_pmse_model(ncol(D), min(n, m), maxorder)
  # aliased columns (products of categories that always occur together,
  # ...) out before the fit: they do not change the model's span, but
  # glm.fit()'s iterations on them may diverge where some rows are
  # separated (SD2011, 6 columns, 3,000 rows a set, these contrasts with
  # their 54 aliased columns: pMSE 0.250 for synthpop's 0.0097)
  q <- qr(D, tol = min(1e-7, logit_epsilon / 1000))
  if (q$rank < ncol(D)) D <- D[, sort(q$pivot[seq_len(q$rank)]), drop = FALSE]
  fit <- pmse_glm(D, rep(c(0, 1), c(n, m)))
  warn_pmse_fit(fit)
  p <- fit$fitted.values
  pmse <- sum((p - cc)^2) / N
  expected <- (fit$rank - 1) * (1 - cc)^2 * cc / N
  # (no column varies: the model is the intercept, p = c, and the ratio
  # is undefined)
  s_pmse <- if (expected > 0) pmse / expected else NA_real_
  list(pmse = pmse, s_pmse = s_pmse, parameters = fit$rank, fitted = p)
}

#' An error (prdcurve_error_input) before any work when the real rows
#' `real` (a numeric matrix; other sets are left to pmse_one()) already
#' make the propensity model larger than `max_params`: a product nonzero
#' on a real row is nonzero on the pooled rows, so their count is a lower
#' bound. The command line checks `--metrics=pmse` so before its curves.
#' @noRd
pmse_check_model <- function(real, maxorder, max_params, call = NULL) {
  if (!is.matrix(real) || !is.numeric(real)) return(invisible())
  if (!is.double(real)) storage.mode(real) <- "double"
  model <- pmse_terms(real, NULL, maxorder, max_params = max_params,
                      call = call)
  logit_fit_terms(model$X, maxorder, max_params = max_params,
                  terms = model$terms, raisable = TRUE, call = call)
  invisible()
}

#' The propensity model's maximum-likelihood fit (glm.fit(), at most
#' logit_maxit iterations, synthpop's tolerance; its warnings of fitted
#' probabilities 0 or 1 are those of sets a model tells apart, whose pMSE
#' is then near its maximum, as it should be)
#' @noRd
pmse_glm <- function(D, y) {
  suppressWarnings(stats::glm.fit(
    D, y, family = stats::binomial(),
    control = list(epsilon = logit_epsilon, maxit = logit_maxit)))
}

#' The warning (prdcurve_warning_convergence) of a propensity fit that
#' diverged: its deviance above the intercept-only model's, which the
#' maximum-likelihood fit of a model with an intercept can never be
#' (synthpop's utility.gen() read 0.25 for 0.049 on one synthesis of 500
#' rows, its glm diverging on aliased columns, which pmse_one() removes
#' first). Its pMSE is then not the model's.
#' @noRd
warn_pmse_fit <- function(fit) {
  dev <- fit$deviance
  null <- fit$null.deviance
  if (is.finite(dev) && is.finite(null) && dev <= null * (1 + 1e-8) + 1e-8) {
    return(invisible())
  }
  prd_warn(c(
    "The propensity model of pMSE did not reach its maximum likelihood: its deviance ({format(dev, digits = 4)}) is above the intercept-only model's ({format(null, digits = 4)}).",
    "x" = "Its pMSE and S_pMSE are not the model's.",
    "i" = "Use a smaller {.arg maxorder} or fewer {.arg features}."
  ), "convergence")
}

#' The columns and terms of the propensity model of pmse_one() on the
#' stacked sets X, under R's treatment contrasts (those of synthpop's
#' glm(t ~ .^(maxorder + 1))). `enc`: the encoding of X's columns
#' (encode_categories(), R/encode.R); NULL (a matrix input): every column
#' is numeric. A numeric column is a group of its own column; a
#' categorical one, the indicators of its categories that occur in X but
#' the first (the reference level; categories of other sets of the call
#' are left out, as synthpop drops empty levels), rescaled to 0/1; a
#' categorical column with one category in X enters not at all. The
#' terms: every column of every group, then for each set of 2, ...,
#' maxorder + 1 distinct groups every product of one column of each
#' (never two indicators of one categorical column). On numeric columns
#' these are logit_terms(ncol(X), maxorder).
#' @return list(X, terms: a list of column numbers of X, mains first)
#' @noRd
pmse_terms <- function(X, enc, maxorder, max_params = Inf,
                       call = rlang::caller_env()) {
  p <- ncol(X)
  if (is.null(enc) || nrow(enc) != p) {
    groups <- as.list(seq_len(p))
  } else {
    groups <- split(seq_len(p), factor(enc$variable, unique(enc$variable)))
    for (i in seq_along(groups)) {
      cols <- groups[[i]]
      if (is.na(enc$category[cols[1]])) next
      X[, cols] <- (X[, cols, drop = FALSE] != 0) * 1
      groups[[i]] <- cols[colSums(X[, cols, drop = FALSE]) > 0][-1]
    }
    groups <- unname(groups[lengths(groups) > 0L])
  }
  if (!length(groups)) return(list(X = X, terms = list()))
  # the main effects alone past max_params: refused before the products
  # are listed (2.1 million at 2,048 columns, minutes before the error)
  mains <- sum(lengths(groups))
  if (mains + 1 > max_params) {
    logit_fit_terms(X, 0L, max_params = max_params,
                    terms = as.list(seq_len(mains)), raisable = TRUE,
                    call = call, shown_order = maxorder)
  }
  combos <- logit_terms(length(groups), maxorder)
  terms <- unlist(lapply(combos, function(g) {
    cols <- as.matrix(expand.grid(groups[g], KEEP.OUT.ATTRS = FALSE))
    lapply(seq_len(nrow(cols)), function(i) unname(cols[i, ]))
  }), recursive = FALSE)
  list(X = X, terms = terms)
}

#' Fewest rows of the smaller set per parameter of the propensity model
#' (the events per variable of logistic regression, whose rule of thumb
#' is 10) below which warn_pmse_model() warns: the model then nears
#' fitting the rows themselves, and pMSE its maximum c (1 - c) (0.25 for
#' sets of one size, every row told apart) whatever the model: 16 rows of
#' mtcars against their synthpop copy at maxorder = 1 (67 parameters) read
#' 0.250. synthpop's utility.gen() warns of such "large models" too.
#' @noRd
pmse_min_rows_per_param <- 3

#' The warning (prdcurve_warning_small_sample) of a propensity model of
#' `k` parameters on `rows` rows of the smaller set
#' @noRd
warn_pmse_model <- function(k, rows, maxorder) {
  if (k < 2L || rows >= pmse_min_rows_per_param * (k - 1L)) return(invisible())
  prd_warn(c(
    "The propensity model of pMSE has {k} parameters for {rows} rows of the smaller set (maxorder = {maxorder}).",
    "x" = "With fewer than {pmse_min_rows_per_param} rows per parameter it nears fitting the rows themselves: pMSE nears its maximum and S_pMSE means little, whatever the model.",
    "i" = "Use a smaller {.arg maxorder}, fewer {.arg features}, or more rows."
  ), "small_sample")
}

#' `max_params` of pmse_stats() and embedding_metrics(): a whole number >= 1
#' (synthpop's `max.params`)
#' @noRd
check_max_params <- function(max_params, arg = "max_params",
                             call = rlang::caller_env()) {
  if (!is.numeric(max_params) || length(max_params) != 1L ||
      is.na(max_params) || max_params < 1 || max_params > .Machine$integer.max ||
      max_params != round(max_params)) {
    prd_abort(c(
      "{.arg {arg}} must be a whole number >= 1.",
      "x" = "It is {describe(max_params)}."
    ), "input", call = call)
  }
  as.integer(max_params)
}

#' `maxorder`: a whole number >= 0
#' @noRd
check_maxorder <- function(maxorder, arg = "maxorder",
                           call = rlang::caller_env()) {
  if (!is.numeric(maxorder) || length(maxorder) != 1L || is.na(maxorder) ||
      maxorder < 0 || maxorder != round(maxorder) || maxorder > 10) {
    prd_abort(c(
      "{.arg {arg}} must be a whole number from 0 to 10.",
      "x" = "It is {.obj_type_friendly {maxorder}}{if (is.numeric(maxorder) && length(maxorder) == 1L) paste0(' (', maxorder, ')')}."
    ), "input", call = call)
  }
  as.integer(maxorder)
}
