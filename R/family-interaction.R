# The interaction family of prd_curve() (SPEC.md section 7): a logistic
# regression of the set label (1 = generated) on a quadratic basis whose
# coefficients may differ by category, for synthetic tabular data. Where a
# category changes the law of a continuous column (a mean or a spread that
# depends on sex or region), the log likelihood ratio is a function of the
# category's indicator times the column and its square: neither the
# Gaussian families (one law for every category), nor the logit family's
# main effects and pairwise products (no squares), nor the per-coordinate
# marginal family can represent it.
#
# The candidate terms. Columns that hold at most two values over the rows
# of both sets are binary (the indicators of categorical columns, R/encode.R,
# and 0/1 columns); the others are continuous, centred and scaled by the
# mean and standard deviation of the pooled rows (both sets, no labels).
# The candidates, in groups:
#   - "main": a continuous column x and its square x^2;
#   - "category": a binary column b;
#   - "varying": b x and b x^2 (the quadratic in x within b's category);
#   - "pair": b b' for two binary columns whose product is not 0 on every
#     row (two categorical columns' joint law).
# At d = 64 continuous columns and 7 indicators that is 1,041 terms,
# about a tenth of the rows of a fit at n = 5,000: fitted on all of them,
# each term's noise adds to every score. Measured (the validity suite's
# category_mean and category_scale at d = 64, n = 5,000, one draw): AUC
# errors +0.067 and +0.039 in 54 s with every term, -0.024 and -0.013 in
# 1.9 s with the screening below.
#
# Screening. On each fold's fit rows, every term's two-sample statistic
# (Welch's z: the difference of its means in the two sets over its
# standard error) is the score test of its coefficient at the
# intercept-only model; a group enters when one of its terms exceeds the
# Bonferroni bound qnorm(1 - 0.05 / (2 T)) over the T candidate terms
# (sure independence screening: Fan, J. and Lv, J. 2008, JRSS B 70(5),
# 849-911, doi:10.1111/j.1467-9868.2008.00674.x; with a family-wise bound),
# with its parents (a varying group brings b, x and x^2; a pair its two
# binary columns), at most `interaction_max_terms` terms by decreasing z.
# The selected terms are then fitted by Newton's method with a light
# ridge penalty (interaction_ridge times the fit rows times each term's
# variance, half the squared coefficient: a coefficient of a term without
# signal shrinks by about 0.4%), which keeps the coefficients finite on
# separated sets and the iterations few (at most interaction_maxit, each
# fold started from the previous fold's coefficients when it selects the
# same terms). The screening reads only the sums and sums of squares of
# the terms, formed once per cell of rows (fit rows, folds), so a fold
# costs one pass over its selected columns per iteration.

#' The Bonferroni level of the screening: the family-wise chance that a
#' term without signal enters a fold's model
#' @noRd
interaction_alpha <- 0.05

#' Most terms a fold's model may hold (the intercept aside): the groups of
#' largest z first
#' @noRd
interaction_max_terms <- 100L

#' The ridge penalty of the fits, per fit row and unit variance of a term
#' @noRd
interaction_ridge <- 1e-3

#' Most Newton iterations of a fold's fit, and the convergence tolerance
#' on the relative change of the penalised deviance (glm.fit()'s rule)
#' @noRd
interaction_maxit <- 30L
interaction_epsilon <- 1e-10

#' Most candidate terms: above, the varying squares, then the pairs, are
#' left out (and the family is not in the default of tightest)
#' @noRd
interaction_max_candidates <- 20000L

#' The candidate terms on the columns of X (rows `rows` of both sets, a list
#' of two index vectors into `real` and `generated`).
#' @return list(terms = data.frame(a, b, sq, group) one row per term: the
#'   product of columns a and b (b NA: a alone) squared in a when sq;
#'   groups = data.frame(kind, parents: list of group numbers), centre,
#'   scale (of every column; 0 and 1 for binary ones))
#' @noRd
interaction_terms <- function(real, generated, rows,
                              max_candidates = interaction_max_candidates) {
  d <- ncol(real)
  nvals <- vapply(seq_len(d), function(j) {
    v <- c(real[rows[[1]], j], generated[rows[[2]], j])
    u <- v[1]
    w <- v[v != u]
    if (!length(w)) 1L else if (all(w == w[1])) 2L else 3L
  }, integer(1))
  cont <- which(nvals == 3L)
  bin <- which(nvals == 2L)
  centre <- numeric(d)
  scale <- rep(1, d)
  for (j in cont) {
    v <- c(real[rows[[1]], j], generated[rows[[2]], j])
    centre[j] <- mean(v)
    s <- stats::sd(v)
    scale[j] <- if (s > 0) s else 1
  }
  pairs <- if (length(bin) > 1L) {
    cmb <- utils::combn(bin, 2L)
    hit <- vapply(seq_len(ncol(cmb)), function(k) {
      any(real[rows[[1]], cmb[1, k]] * real[rows[[1]], cmb[2, k]] != 0) ||
        any(generated[rows[[2]], cmb[1, k]] * generated[rows[[2]], cmb[2, k]] != 0)
    }, logical(1))
    cmb[, hit, drop = FALSE]
  } else matrix(integer(), 2L, 0L)
  count <- function(sq_varying, with_pairs) {
    2L * length(cont) + length(bin) +
      length(bin) * length(cont) * (1L + sq_varying) +
      with_pairs * ncol(pairs)
  }
  sq_varying <- TRUE
  with_pairs <- TRUE
  if (count(TRUE, TRUE) > max_candidates) sq_varying <- FALSE
  if (count(sq_varying, TRUE) > max_candidates) with_pairs <- FALSE
  if (!with_pairs) pairs <- pairs[, 0L, drop = FALSE]
  # groups: mains (one per continuous column), categories, varying, pairs
  g_main <- seq_along(cont)
  g_cat <- length(cont) + seq_along(bin)
  kind <- c(rep("main", length(cont)), rep("category", length(bin)))
  parents <- rep(list(integer()), length(kind))
  ta <- tb <- tg <- integer()
  tsq <- logical()
  add <- function(a, b, sq, g) {
    ta <<- c(ta, a)
    tb <<- c(tb, b)
    tsq <<- c(tsq, sq)
    tg <<- c(tg, g)
  }
  for (i in seq_along(cont)) {
    add(cont[i], NA_integer_, FALSE, g_main[i])
    add(cont[i], NA_integer_, TRUE, g_main[i])
  }
  for (i in seq_along(bin)) add(bin[i], NA_integer_, FALSE, g_cat[i])
  for (i in seq_along(bin)) {
    for (k in seq_along(cont)) {
      kind <- c(kind, "varying")
      parents <- c(parents, list(c(g_cat[i], g_main[k])))
      g <- length(kind)
      add(cont[k], bin[i], FALSE, g)
      if (sq_varying) add(cont[k], bin[i], TRUE, g)
    }
  }
  for (k in seq_len(ncol(pairs))) {
    kind <- c(kind, "pair")
    parents <- c(parents, list(g_cat[match(pairs[, k], bin)]))
    add(pairs[1, k], pairs[2, k], FALSE, length(kind))
  }
  list(terms = data.frame(a = ta, b = tb, sq = tsq, group = tg),
       groups = data.frame(kind = kind, parents = I(parents)),
       centre = centre, scale = scale)
}

#' The terms `which` (rows of spec$terms) on the rows `rows` of X: an n x
#' length(which) matrix (continuous columns centred and scaled first)
#' @noRd
interaction_design <- function(X, spec, rows, which = seq_len(nrow(spec$terms))) {
  tm <- spec$terms[which, , drop = FALSE]
  cols <- unique(c(tm$a, tm$b[!is.na(tm$b)]))
  Z <- X[rows, cols, drop = FALSE]
  Z <- sweep(sweep(Z, 2L, spec$centre[cols]), 2L, spec$scale[cols], `/`)
  ia <- match(tm$a, cols)
  out <- Z[, ia, drop = FALSE]
  sq <- which(tm$sq)
  if (length(sq)) out[, sq] <- out[, sq]^2
  pb <- which(!is.na(tm$b))
  if (length(pb)) {
    out[, pb] <- out[, pb] * Z[, match(tm$b[pb], cols), drop = FALSE]
  }
  out
}

#' Sums and sums of squares of every term over each cell of one set's rows
#' (cells: a list of row-index vectors), by blocks of terms
#' @return list(s1, s2): cells x terms matrices
#' @noRd
interaction_cell_sums <- function(X, spec, cells, block = 256L) {
  rows <- unlist(cells, use.names = FALSE)
  cid <- rep.int(seq_along(cells), lengths(cells))
  # the cells that hold rows (rowsum() leaves out empty groups: the fit
  # rows' cell without a split); the others sum to 0
  has <- sort(unique(cid))
  T <- nrow(spec$terms)
  s1 <- s2 <- matrix(0, length(cells), T)
  # no terms (every column constant): nothing to sum
  for (st in if (T) seq(1L, T, by = if (length(rows)) block else T + 1L)) {
    w <- st:min(T, st + block - 1L)
    B <- interaction_design(X, spec, rows, w)
    s1[has, w] <- rowsum(B, cid, reorder = TRUE)
    s2[has, w] <- rowsum(B^2, cid, reorder = TRUE)
  }
  list(s1 = s1, s2 = s2)
}

#' The screening of one fold: Welch's z of every term from the two sets'
#' sums over the fit rows (n rows, sums s1, s2 of each set), the groups
#' above the Bonferroni bound with their parents, at most `max_terms`
#' terms.
#' @return the selected term numbers (rows of spec$terms), sorted
#' @noRd
interaction_screen <- function(spec, n, s1, s2, alpha = interaction_alpha,
                               max_terms = interaction_max_terms) {
  T <- nrow(spec$terms)
  if (!T) return(integer())
  z <- abs(interaction_z(n, s1, s2))
  bound <- stats::qnorm(1 - alpha / (2 * T))
  gz <- vapply(split(z, factor(spec$terms$group,
                               levels = seq_len(nrow(spec$groups)))),
               function(x) if (length(x)) max(x) else 0, numeric(1))
  hit <- which(gz > bound)
  hit <- hit[order(-gz[hit], hit)]
  sizes <- tabulate(spec$terms$group, nrow(spec$groups))
  keep <- integer()
  for (g in hit) {
    add <- setdiff(c(spec$groups$parents[[g]], g), keep)
    if (sum(sizes[c(keep, add)]) > max_terms) break
    keep <- c(keep, add)
  }
  sort(which(spec$terms$group %in% keep))
}

#' Welch's two-sample statistic of every term, (mean in the generated
#' set - mean in the real set) / its standard error with each set's
#' unbiased variance, from the sets' row counts n (two numbers) and the
#' terms' sums s1 and sums of squares s2 (a list of two vectors each); 0
#' for a term constant in both sets.
#' @noRd
interaction_z <- function(n, s1, s2) {
  m <- lapply(1:2, function(j) s1[[j]] / n[j])
  v <- lapply(1:2, function(j) {
    pmax(s2[[j]] - n[j] * m[[j]]^2, 0) / max(n[j] - 1, 1)
  })
  se <- sqrt(v[[1]] / n[1] + v[[2]] / n[2])
  ifelse(se > 0, (m[[2]] - m[[1]]) / se, 0)
}

#' Penalised logistic regression of y (0/1) on the design B (first column
#' the intercept) by Newton's method: maximises sum(log-likelihood) -
#' ridge n / 2 sum_j v_j beta_j^2 over the n rows, v_j the variance of
#' column j (0 for the intercept), from `start`; a step that does not
#' lower the penalised deviance is halved (up to 30 times).
#' @return list(beta, iterations, converged)
#' @noRd
interaction_fit <- function(B, y, ridge = interaction_ridge,
                            start = NULL, maxit = interaction_maxit,
                            epsilon = interaction_epsilon) {
  n <- nrow(B)
  p <- ncol(B)
  v <- c(0, if (p > 1L) pmax(colMeans(B[, -1L, drop = FALSE]^2) -
                               colMeans(B[, -1L, drop = FALSE])^2, 0))
  # (a floor keeps columns constant on the fit rows, 0 on every one of
  # them, from leaving the system singular)
  pen <- ridge * n * v + c(0, rep(1e-10 * n, p - 1L))
  beta <- if (is.null(start)) numeric(p) else start
  dev_of <- function(eta) {
    # -2 log-likelihood, stable for large |eta|
    -2 * sum(ifelse(y == 1, stats::plogis(eta, log.p = TRUE),
                    stats::plogis(-eta, log.p = TRUE))) +
      sum(pen * beta^2)
  }
  eta <- drop(B %*% beta)
  dev <- dev_of(eta)
  converged <- FALSE
  it <- 0L
  while (it < maxit) {
    it <- it + 1L
    mu <- stats::plogis(eta)
    w <- pmax(mu * (1 - mu), 1e-12)
    H <- crossprod(B, B * w)
    diag(H) <- diag(H) + pen
    g <- drop(crossprod(B, y - mu)) - pen * beta
    R <- tryCatch(chol(H), error = function(e) NULL)
    if (is.null(R)) break
    step <- backsolve(R, backsolve(R, g, transpose = TRUE))
    old <- beta
    for (h in 0:30) {
      beta <- old + step / 2^h
      eta <- drop(B %*% beta)
      new_dev <- dev_of(eta)
      if (is.finite(new_dev) && new_dev <= dev + 1e-12 * abs(dev)) break
    }
    done <- abs(dev - new_dev) / (abs(new_dev) + 0.1) < epsilon
    dev <- new_dev
    if (done) {
      converged <- TRUE
      break
    }
  }
  list(beta = beta, iterations = it, converged = converged)
}

#' The interaction family's scores of every fold at once (the "cells" path
#' of the registry): fold v (cell v + 1) scored by the model screened and
#' fitted on every other cell of both sets.
#' @return list(real, gen, settings = list(candidates, terms: the folds'
#'   mean number of selected terms, iterations: their mean number of Newton
#'   iterations, converged: the share of fits that converged))
#' @noRd
interaction_scores <- function(real, generated, cells,
                               alpha = interaction_alpha,
                               max_terms = interaction_max_terms,
                               ridge = interaction_ridge) {
  K <- length(cells[[1]]) - 1L
  total <- lapply(cells, function(cj) unlist(cj, use.names = FALSE))
  spec <- interaction_terms(real, generated, total)
  sets <- list(real, generated)
  sums <- lapply(1:2, function(j) interaction_cell_sums(sets[[j]], spec, cells[[j]]))
  tot <- lapply(sums, function(s) lapply(s, colSums))
  sc <- list(rep(NA_real_, length(total[[1]])), rep(NA_real_, length(total[[2]])))
  nterms <- conv <- iters <- numeric(K)
  prev <- NULL
  for (v in seq_len(K)) {
    c1 <- v + 1L
    n <- vapply(1:2, function(j) length(total[[j]]) - length(cells[[j]][[c1]]), 0)
    s1 <- lapply(1:2, function(j) tot[[j]]$s1 - sums[[j]]$s1[c1, ])
    s2 <- lapply(1:2, function(j) tot[[j]]$s2 - sums[[j]]$s2[c1, ])
    keep <- interaction_screen(spec, n, s1, s2, alpha, max_terms)
    fit_rows <- lapply(1:2, function(j) sort(unlist(cells[[j]][-c1], use.names = FALSE)))
    B <- rbind(interaction_design(real, spec, fit_rows[[1]], keep),
               interaction_design(generated, spec, fit_rows[[2]], keep))
    start <- if (!is.null(prev) && identical(prev$keep, keep)) prev$beta
    f <- interaction_fit(cbind(1, B), rep(c(0, 1), lengths(fit_rows)),
                         ridge = ridge, start = start)
    prev <- list(keep = keep, beta = f$beta)
    nterms[v] <- length(keep)
    conv[v] <- as.numeric(f$converged)
    iters[v] <- f$iterations
    for (j in 1:2) {
      ev <- cells[[j]][[c1]]
      pos <- match(ev, total[[j]])
      sc[[j]][pos] <- drop(cbind(1, interaction_design(sets[[j]], spec, ev, keep)) %*% f$beta)
    }
  }
  ev <- lapply(1:2, function(j) match(unlist(cells[[j]][-1L], use.names = FALSE), total[[j]]))
  list(real = sc[[1]][ev[[1]]], gen = sc[[2]][ev[[2]]],
       settings = list(candidates = nrow(spec$terms), terms = mean(nterms),
                       iterations = mean(iters), converged = mean(conv)))
}
