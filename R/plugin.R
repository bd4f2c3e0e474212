#' Exact PR curve of two discrete distributions
#'
#' For weights \eqn{p} (real) and \eqn{q} (generated) on the same finite
#' set, normalised to sum to one, \eqn{\alpha_\lambda = \sum_i \min(\lambda
#' p_i, q_i)} and \eqn{\beta_\lambda = \sum_i \min(p_i, q_i / \lambda)}
#' (Sajjadi et al. 2018, Theorem 2; Sykes et al. 2024, eq. 2). The end rows
#' are \eqn{\beta_0 = \sum_{q_i > 0} p_i} and \eqn{\alpha_\infty =
#' \sum_{p_i > 0} q_i}.
#'
#' With class proportions as weights this is the true curve of the
#' class-subset experiment (a rectangle with maximal precision
#' \eqn{\alpha_\infty} and maximal recall \eqn{\beta_0}; see
#' [prd_class_subset()]).
#'
#' @param p,q Non-negative finite weights of the same length, each with a
#'   positive sum (counts or probabilities).
#' @param angles Number of \eqn{\lambda} values on the grid of
#'   [prd_curve()].
#' @return A `prd_curve` with `method = "discrete"`.
#' @section Errors: `p` and `q` must be non-negative finite numbers with
#'   positive sums and of the same length; `angles` a whole number >= 3.
#' @references Sajjadi, M. S. M., Bachem, O., Lucic, M., Bousquet, O. and
#'   Gelly, S. (2018). Assessing generative models via precision and
#'   recall. NeurIPS. Theorem 2.
#' @examples
#' # P uniform on classes 0-4, Q on classes 0-2: max precision 1, recall 3/5
#' summary(prd_discrete(c(1, 1, 1, 1, 1), c(1, 1, 1, 0, 0)))
#' @export
prd_discrete <- function(p, q, angles = 1001) {
  p <- check_weights(p)
  q <- check_weights(q)
  check_same_length(p, q)
  angles <- check_angles(angles)
  p <- normalise_weights(p)
  q <- normalise_weights(q)
  lambda <- lambda_grid(angles)
  env <- discrete_envelope(p, q, lambda)
  alpha <- pmin(env$alpha, pmin(lambda, 1))
  beta <- pmin(env$beta, pmin(1, 1 / lambda))
  new_prd_curve(lambda, alpha, beta,
                max_precision = min(1, sum(q[p > 0])),
                max_recall = min(1, sum(p[q > 0])), method = "discrete",
                info = curve_info(source = "prd_discrete", angles = angles))
}

#' alpha_lambda = sum_i min(lambda p_i, q_i) and beta_lambda = sum_i
#' min(p_i, q_i / lambda) at every lambda, in O((n + m) log n): with the
#' cells sorted by r_i = q_i / p_i, alpha_lambda = sum_{r_i <= lambda} q_i +
#' lambda sum_{r_i > lambda} p_i. `key` is r or any increasing transform of
#' it (e.g. log r), with `t` the same transform of `lambda`; cells with
#' p_i = q_i = 0 are dropped. Tails are summed from their own end (no
#' cancellation in total - partial sum).
#' @noRd
discrete_envelope <- function(p, q, lambda, key = q / p, t = lambda) {
  keep <- p > 0 | q > 0
  o <- order(key[keep])
  key <- key[keep][o]
  p <- p[keep][o]
  q <- q[keep][o]
  i <- findInterval(t, key)  # number of cells with key <= t
  q_low <- c(0, cumsum(q))[i + 1L]
  p_high <- c(rev(cumsum(rev(p))), 0)[i + 1L]
  list(alpha = q_low + lambda * p_high, beta = p_high + q_low / lambda)
}

#' PR curve of k-means histograms (Sajjadi et al. 2018)
#'
#' The original PRD estimator of Sajjadi, Bachem, Lucic, Bousquet and Gelly
#' (2018, section 4): the pooled samples are clustered with k-means, each
#' set becomes a histogram over the clusters, and the exact curve of the two
#' histograms is taken ([prd_discrete()]: the total-variation plug-in on
#' this discretisation). The curves of `runs` independent clusterings are
#' averaged, precision and recall separately at every \eqn{\lambda} (as in
#' the authors' code).
#'
#' Each clustering is the best (lowest total within-cluster sum of squares)
#' of `nstart` runs of [stats::kmeans()] (Hartigan-Wong), each started from
#' centres chosen by k-means++ seeding (Arthur and Vassilvitskii 2007): the
#' first centre is a random row, each next one a row drawn with probability
#' proportional to its squared distance to the nearest centre chosen so far.
#' This is the initialisation of the authors' code (scikit-learn's k-means,
#' `init = "k-means++"`, `n_init = 10`), and it is much more reliable than
#' uniformly random starts: on 5 clusters 100 units apart, `stats::kmeans()`
#' with random starts misses a cluster in about one call in seven, k-means++
#' never. With as many clusters as distinct pooled rows, each distinct row
#' is its own cluster (the exact optimum, no k-means needed).
#'
#' The clustering uses R's random number generator, so [set.seed()]
#' reproduces the result. Unlike the authors' code, the two sets need not
#' have the same size: each histogram is normalised by its own set size.
#' The estimate depends strongly on `clusters`: with few clusters, distinct
#' distributions look alike (the curve is optimistic); with many, every
#' cluster holds few points and sampling noise makes equal distributions
#' look different.
#'
#' @inheritParams prd_curve
#' @param clusters Number of k-means clusters, a whole number between 1 and
#'   the number of distinct pooled rows (default 20, as Sajjadi et al.).
#' @param runs Number of independent clusterings averaged, between 1 and
#'   1000 (default 10, as Sajjadi et al.).
#' @param nstart Number of k-means++ starts per clustering, between 1 and
#'   1000; the clustering with the lowest total within-cluster sum of
#'   squares is kept (default 10, the authors' `n_init = 10`).
#' @param iter.max Maximal number of iterations of each [stats::kmeans()]
#'   run (default 50). A run that stops before converging gives a warning of
#'   class `prdcurve_warning_convergence`.
#' @return A `prd_curve` with `method = "histogram"` and the columns of
#'   [prd_curve()]; attributes `clusters`, `runs`, `n` (numbers of real
#'   and generated rows) and `angles`.
#' @section Errors: as [prd_curve()] for `real` and `generated` (one set:
#'   several, a list or a grouped data frame, are an input error that shows
#'   how to bind one curve each with [prd_bind()]);
#'   `clusters` larger than the number of distinct pooled rows; `runs` or
#'   `nstart` not whole numbers between 1 and 1000; `iter.max` not a whole
#'   number >= 1.
#' @references Sajjadi, M. S. M., Bachem, O., Lucic, M., Bousquet, O. and
#'   Gelly, S. (2018). Assessing generative models via precision and
#'   recall. NeurIPS. Section 4 and Algorithm 1 (`compute_prd_from_embedding`
#'   in their code).
#'
#'   Arthur, D. and Vassilvitskii, S. (2007). k-means++: the advantages of
#'   careful seeding. Proceedings of the 18th Annual ACM-SIAM Symposium on
#'   Discrete Algorithms (SODA), 1027-1035.
#' @seealso [prd_discrete()], [prd_curve()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 4), ncol = 4)
#' generated <- matrix(rnorm(300 * 4, mean = 1), ncol = 4)
#' summary(prd_histogram(real, generated, clusters = 10, runs = 3))
#' @export
prd_histogram <- function(real, generated, clusters = 20, runs = 10,
                          angles = 1001, nstart = 10, iter.max = 50) {
  sets <- plugin_sets(real, generated)
  real <- sets$real
  generated <- sets$generated
  angles <- check_angles(angles)
  runs <- check_count(runs, max = 1000)
  nstart <- check_count(nstart, max = 1000)
  iter.max <- check_count(iter.max, max = .Machine$integer.max)
  pooled <- rbind(real, generated)
  row_id <- distinct_row_ids(pooled)
  n_distinct <- max(row_id)
  clusters <- check_count(clusters, max = n_distinct)
  is_real <- rep(c(TRUE, FALSE), c(nrow(real), nrow(generated)))
  acc <- NULL
  for (r in seq_len(runs)) {
    cl <- if (clusters == 1L) {
      rep(1L, nrow(pooled))
    } else if (clusters == n_distinct) {
      # one cluster per distinct row: the unique optimum (zero within-SS)
      row_id
    } else {
      kmeans_pp(pooled, clusters, nstart = nstart, iter.max = iter.max)
    }
    p <- tabulate(cl[is_real], nbins = clusters)
    q <- tabulate(cl[!is_real], nbins = clusters)
    cv <- prd_discrete(p, q, angles = angles)
    acc <- if (is.null(acc)) {
      cv[, c("precision", "recall")]
    } else {
      acc + cv[, c("precision", "recall")]
    }
  }
  inner <- seq(2L, nrow(cv) - 1L)
  last <- nrow(cv)
  new_prd_curve(cv$lambda[inner], pmin(acc$precision[inner] / runs, 1),
                pmin(acc$recall[inner] / runs, 1),
                max_precision = min(1, acc$precision[last] / runs),
                max_recall = min(1, acc$recall[1] / runs),
                method = "histogram",
                info = curve_info(source = "prd_histogram", angles = angles,
                                  sizes = c(eval_real = nrow(real),
                                            eval_generated = nrow(generated)),
                                  details = list(clusters = clusters,
                                                 runs = runs)))
}

#' k-means with k-means++ seeding (Arthur and Vassilvitskii 2007): the best
#' (lowest tot.withinss) of `nstart` runs of stats::kmeans(), each started
#' from k-means++ centres. `x` must have more than k distinct rows. Returns
#' the cluster of every row. kmeans()'s warnings are re-raised classed.
#' @noRd
kmeans_pp <- function(x, k, nstart = 10L, iter.max = 50L) {
  tx <- t(x)
  xn <- colSums(tx^2)
  best <- NULL
  for (s in seq_len(nstart)) {
    centres <- x[kmeanspp_seeds(x, k, tx = tx, xn = xn), , drop = FALSE]
    fit <- withCallingHandlers(
      stats::kmeans(x, centers = centres, iter.max = iter.max),
      warning = function(w) {
        msg <- conditionMessage(w)
        prd_warn(c("k-means stopped before converging.",
                   "x" = "{msg}",
                   "i" = "Increase {.arg iter.max}."),
                 "convergence")
        invokeRestart("muffleWarning")
      }
    )
    if (is.null(best) || fit$tot.withinss < best$tot.withinss) best <- fit
  }
  best$cluster
}

#' k-means++ seeding by D^2 sampling with R's RNG: the first centre is a
#' uniformly drawn row of x, each next one is drawn with probability
#' proportional to its squared distance to the nearest centre so far
#' (inverse CDF of the cumulative sums: one runif() per centre). Returns
#' the k row indices.
#'
#' Squared distances to a new centre c come from one matrix-vector product,
#' |x|^2 + |c|^2 - 2 <x, c> (as scikit-learn does); where that is within a
#' relative 1e-9 of 0 (duplicates and near-duplicates of c, where it
#' cancels) it is recomputed exactly, so a row equal to a chosen centre has
#' probability exactly 0 and the k centres are distinct rows.
#' @noRd
kmeanspp_seeds <- function(x, k, tx = t(x), xn = colSums(tx^2)) {
  n <- nrow(x)
  dist2 <- function(i) {
    ci <- tx[, i]
    cn <- xn[i]
    d2 <- xn + cn - 2 * drop(x %*% ci)
    near <- which(d2 <= 1e-9 * (xn + cn))
    d2[near] <- colSums((tx[, near, drop = FALSE] - ci)^2)
    pmax(d2, 0)
  }
  idx <- integer(k)
  idx[1L] <- sample.int(n, 1L)
  d2 <- dist2(idx[1L])
  for (j in seq_len(k)[-1L]) {
    cs <- cumsum(d2)
    total <- cs[n]
    if (!(total > 0) || !is.finite(total)) {
      prd_abort("k-means++ found fewer than {k} distinct rows.",
                kind = "engine")
    }
    # the first row whose cumulative sum exceeds u: its d2 is positive
    idx[j] <- min(findInterval(stats::runif(1L) * total, cs) + 1L, n)
    d2 <- pmin(d2, dist2(idx[j]))
  }
  idx
}

#' Ids 1..(number of distinct rows) of the rows of a numeric matrix: equal
#' rows share an id. Exact (a radix sort of the rows and a comparison of
#' neighbours), unlike unique() on matrices, which compares rows printed
#' to 15 significant digits.
#' @noRd
distinct_row_ids <- function(x) {
  n <- nrow(x)
  o <- do.call(order, c(unname(as.data.frame(x)), list(method = "radix")))
  xs <- x[o, , drop = FALSE]
  new <- c(TRUE, rowSums(xs[-1L, , drop = FALSE] != xs[-n, , drop = FALSE]) > 0)
  ids <- integer(n)
  ids[o] <- cumsum(new)
  ids
}

#' Plug-in PR curve of uniform-kernel density estimates (Sykes et al. Def. 4)
#'
#' The total-variation plug-in estimator of Sykes, Simon, Rabin and Fadili
#' (2024, Definition 4, eq. 7): the exact PR curve
#' \eqn{\hat\alpha^{TV}_\lambda = \alpha_\lambda(\hat P, \hat Q)} of the
#' kernel density estimates \eqn{\hat P = \bar P * k_\sigma} and
#' \eqn{\hat Q = \bar Q * k_\sigma}, where \eqn{\bar P, \bar Q} are the
#' empirical distributions of `real` and `generated` and \eqn{k_\sigma} is
#' the uniform distribution on the Euclidean ball of radius \eqn{\sigma}
#' (the same for both). Its integral has no closed form, so it is computed by
#' Monte Carlo: `n_mc` points are drawn from \eqn{\hat P} (a random real row
#' plus a uniform point of the \eqn{\sigma}-ball) and `n_mc` from
#' \eqn{\hat Q}, and with the likelihood-ratio (Bayes) classifier of the
#' two estimates,
#' \deqn{\hat\alpha_\lambda = \lambda \hat P(\hat q / \hat p > \lambda) +
#' \hat Q(\hat q / \hat p \le \lambda)}
#' (Simon et al. 2019, Theorem 4). Here
#' \eqn{\hat p(z) \propto \#\{x : \|x - z\| \le \sigma\} / n_X} and
#' likewise \eqn{\hat q}; the counts come from one streamed sweep of the
#' tiled distance engine (no n x n matrix).
#'
#' The estimate is unbiased for \eqn{\alpha_\lambda(\hat P, \hat Q)}, with
#' the standard errors in attribute `std_error`. It differs from the
#' `"kde"` method of [prd_curve()], which minimises the empirical error
#' over all thresholds of the same density ratio on held-out points
#' (Sykes et al., eq. 6): the plug-in is the quantity of their statistical
#' analysis (section 3), not a practical estimator.
#'
#' @inheritParams prd_curve
#' @param bandwidth The kernel radius \eqn{\sigma} (one positive number
#'   up to 1e100, same units as the features). `NULL` (default): the mean
#'   over both sets of the distance of each row to its k-th nearest
#'   neighbour in its own set, k = `round(sqrt(min(n_real, n_generated)))` (as the `"kde"`
#'   method of [prd_curve()] without split).
#' @param n_mc Number of Monte Carlo draws from each estimate (default
#'   10000), with `n_mc` x d at most 1e8 values (800 MB).
#' @return A `prd_curve` with `method = "kde_plugin"`; attributes
#'   `bandwidth`, `n_mc`, `n` (numbers of real and generated rows),
#'   `angles` and `std_error` (a tibble with `lambda` and the Monte Carlo
#'   standard errors of `precision` and `recall`).
#' @section Errors: as [prd_curve()] for `real` and `generated` (one set,
#'   as [prd_histogram()]); a `bandwidth` not positive or above 1e100 (its squares would overflow);
#'   `n_mc` not a whole number of at least 10, or `n_mc` x d above 1e8
#'   values.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#'   perspective on precision and recall for generative models.
#'   arXiv:2405.01611. Definition 4 (eq. 7) and section 3.
#' @seealso [prd_curve()] (`method = "kde"`), [prd_truth()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(200 * 2), ncol = 2)
#' generated <- matrix(rnorm(200 * 2, mean = 1), ncol = 2)
#' summary(prd_kde_plugin(real, generated, bandwidth = 0.5, n_mc = 2000))
#' @export
prd_kde_plugin <- function(real, generated, bandwidth = NULL, n_mc = 10000,
                           angles = 1001) {
  sets <- plugin_sets(real, generated)
  real <- sets$real
  generated <- sets$generated
  angles <- check_angles(angles)
  n_mc <- check_count(n_mc, min = 10, max = .Machine$integer.max)
  nx <- nrow(real)
  ny <- nrow(generated)
  d <- ncol(real)
  check_draw_size(n_mc, d)
  fit <- new_split(list(seq_len(nx), seq_len(ny)))
  if (is.null(bandwidth)) {
    k <- max(1L, round(sqrt(min(nx, ny))))
    k <- check_k(k, min(nx, ny) - 1L, what = "the sets")
    nb <- engine_neighbours(real, generated, fit, k, "own")
    bandwidth <- mean(c(sqrt(nb$own_x[, 1]), sqrt(nb$own_y[, 1])))
  } else {
    bandwidth <- check_positive(bandwidth, len = 1)
    if (bandwidth > 1e100) {
      prd_abort(c(
        "{.arg bandwidth} must be at most 1e100: squared distances to the draws would overflow.",
        "x" = "It is {format(bandwidth, digits = 3)}."
      ))
    }
  }
  draw <- function(samples, n) {
    u <- matrix(stats::rnorm(n * d), n, d)
    radius <- bandwidth * stats::runif(n)^(1 / d)
    samples[sample.int(nrow(samples), n, replace = TRUE), , drop = FALSE] +
      u * (radius / sqrt(rowSums(u^2)))
  }
  z <- rbind(draw(real, n_mc), draw(generated, n_mc))
  fit <- new_split(split_fit(fit), z)
  nb <- engine_neighbours(real, generated, fit, 1L, "kde",
                          bandwidth = c(bandwidth, bandwidth), closed = TRUE)
  # density ratio q/p = (b / n_Y) / (a / n_X); the ball volume cancels
  ratio <- evidence_score(nb$kde_a[, 1] / nx, nb$kde_b[, 1] / ny)
  ix <- seq_len(n_mc)
  ratio_curve(ratio[ix], ratio[-ix], lambda_grid(angles), "kde_plugin",
              info = curve_info(source = "prd_kde_plugin", angles = angles,
                                bandwidth = c(bandwidth, bandwidth),
                                sizes = c(eval_real = nx, eval_generated = ny),
                                details = list(n_mc = n_mc)))
}

#' PR curve of the likelihood-ratio classifier, by Monte Carlo
#'
#' `r_real`, `r_gen`: the ratio q/p (or any increasing transform `t` of it,
#' with `lambda` transformed alike through `tr`) at draws from P and Q.
#' alpha = lambda P(r > lambda) + Q(r <= lambda), beta = alpha / lambda
#' (Simon et al. 2019, Thm 4), with binomial standard errors (kept in the
#' curve's details as `std_error`).
#' @noRd
ratio_curve <- function(r_real, r_gen, lambda, method, tr = identity,
                        info = curve_info()) {
  t <- tr(lambda)
  sr <- sort(r_real)
  sg <- sort(r_gen)
  nr <- length(sr)
  ng <- length(sg)
  a <- 1 - findInterval(t, sr) / nr   # P(r > lambda)
  b <- findInterval(t, sg) / ng       # Q(r <= lambda)
  alpha <- pmin(lambda * a + b, 1)
  beta <- pmin(a + b / lambda, 1)
  se_a <- sqrt(lambda^2 * a * (1 - a) / nr + b * (1 - b) / ng)
  alpha_inf <- mean(r_gen < tr(Inf))  # Q(p > 0)
  beta_0 <- mean(r_real > tr(0))      # P(q > 0)
  se_inf <- sqrt(alpha_inf * (1 - alpha_inf) / ng)
  se_0 <- sqrt(beta_0 * (1 - beta_0) / nr)
  se_b <- se_a / lambda
  info$details[[1]]$std_error <- tibble::tibble(
    lambda = c(0, lambda, Inf), precision = c(0, se_a, se_inf),
    recall = c(se_0, se_b, 0))
  new_prd_curve(lambda, alpha, beta, max_precision = alpha_inf,
                max_recall = beta_0, method = method, info = info)
}

#' Bind several PR curves, or several metrics tables, into one
#'
#' Stacks `prd_curve` objects (for instance estimates of several models,
#' their ground truth and a plug-in) into one `prd_curve`, so that one
#' [summary.prd_curve()] call, one `autoplot()` or one `plot()` shows them
#' together. [rbind()] and `dplyr::bind_rows()` also work and keep every
#' curve's settings, but [rbind()] refuses curves of separate calls with
#' the same label (it would merge them into one); `prd_bind()` in addition
#' relabels and checks that no two inputs share a label.
#'
#' It stacks metrics tables (`prd_metrics`: [manifold_metrics()],
#' [entropy_metrics()], [embedding_metrics()], [pmse_stats()]) the same
#' way, as the one table a call with every model would have given: models
#' evaluated in separate calls against the same real set can then be
#' compared with [prd_compare()]. Each table's per-model attributes are
#' bound with its relabelled models: the half-sample `replicates` (where
#' [rbind()] keeps the first table's only), `eval_sizes`, `model_sizes`,
#' the models' sizes in `sizes` ([embedding_metrics()]), `estimates`
#' ([entropy_metrics()]), `parameters` ([pmse_stats()]), `vendi_classes`,
#' `ct_cells`, and the fingerprints of the real set and of the real rows
#' drawn for the split and every half-sample (`real_set`, `real_draws`).
#' The settings of a call (`split`, `closed`, `k_prime`, `conf_level`,
#' `bandwidth`, `maxorder`, `vendi_real`, the real set's size, ...) must
#' be the same in every table that has them. Attributes of a call's first
#' model (`sizes` and `ppr_radius` of [manifold_metrics()]) and the
#' replicates' `divisor` are the first table's, as in one call.
#'
#' Tables of separate calls on the same real set, with the same settings
#' and `replicates`, generated sets of the same size and the same seed
#' before each call draw the same real rows: their bound table equals the
#' one call's, and so does its [prd_compare()]. Where the real set or the
#' draws differ, [prd_compare()] stops with `prdcurve_error_unpaired`, as
#' for curves (see its section Pairing).
#'
#' @param ... `prd_curve` objects, or metrics tables, or one list of
#'   either. Named arguments relabel: a curve with a `model` column (an
#'   estimate) gets the name as its model (one model) or
#'   `"<name> <model>"` (several); a curve without one gets the
#'   name as its method (one method) or `"<name> <method>"` (several); a
#'   metrics table's model gets the name (one model) or `"<name> <model>"`
#'   (several).
#' @return A `prd_curve` with the columns of its inputs (missing ones
#'   filled with `NA`); each curve's settings stay in [prd_curve_info()].
#'   For metrics tables, a `prd_metrics` table with the columns of its
#'   inputs (`model`, `metric`, `k`, `value`, and `lower`, `upper` where
#'   they have replicates), the rows of each table in order, and the
#'   attributes described above.
#' @section Errors: `prdcurve_error_curve` for an input that is not a valid
#'   curve, or two inputs with the same labels (name the arguments to tell
#'   them apart; [rbind()] gives this error too); `prdcurve_error_metrics`
#'   for a metrics table without the
#'   columns `model`, `metric`, `k` and `value`, for a model, metric and
#'   `k` in two tables (name the arguments), or for a setting that differs
#'   between tables (the message names it and each table's value);
#'   `prdcurve_error_input` for no input, or for curves and metrics tables
#'   together (the message names the arguments of each kind).
#' @examples
#' truth <- prd_truth_gaussian(c(0, 0), c(1, 0))
#' square <- prd_discrete(1, 1)
#' both <- prd_bind(truth = truth, identical = square)
#' summary(both)[, c("method", "auc")]
#'
#' # two models evaluated in separate calls, under the same seed
#' set.seed(1)
#' real <- matrix(rnorm(200 * 4), ncol = 4)
#' near <- matrix(rnorm(200 * 4), ncol = 4)
#' far <- matrix(rnorm(200 * 4, mean = 0.5), ncol = 4)
#' set.seed(2)
#' m1 <- manifold_metrics(real, near, metrics = c("precision", "recall"),
#'                        replicates = 10)
#' set.seed(2)
#' m2 <- manifold_metrics(real, far, metrics = c("precision", "recall"),
#'                        replicates = 10)
#' prd_compare(prd_bind(near = m1, far = m2), baseline = "near")
#' @export
prd_bind <- function(...) {
  curves <- list(...)
  if (length(curves) == 1L && is.list(curves[[1]]) &&
      !is.data.frame(curves[[1]])) {
    curves <- curves[[1]]
  }
  if (length(curves) < 1L) {
    # an empty list given is named
    given <- names(list(...))[1]
    if (is.null(given) || is.na(given) || !nzchar(given)) given <- "..1"
    prd_abort(c("{.fn prd_bind} needs at least one curve or metrics table.",
                "x" = if (...length()) "{.arg {given}} is an empty list."),
              "input")
  }
  nms <- names(curves)
  if (is.null(nms)) nms <- rep("", length(curves))
  nms[is.na(nms)] <- ""
  if (any(vapply(curves, inherits, logical(1), "prd_metrics"))) {
    return(bind_metrics(curves, nms))
  }
  parts <- lapply(seq_along(curves), function(i) {
    cv <- curves[[i]]
    check_curve(cv, if (nzchar(nms[i])) nms[i] else paste0("..", i))
    if (!inherits(cv, "prd_curve")) {
      cv <- as_prd_curve(tibble::as_tibble(cv), NULL)
    }
    if (nzchar(nms[i])) cv <- relabel_curve(cv, nms[i])
    cv
  })
  keys <- lapply(parts, curve_keys)
  all_keys <- vctrs::vec_rbind(!!!keys)
  if (vctrs::vec_duplicate_any(all_keys)) {
    dup <- all_keys[vctrs::vec_duplicate_detect(all_keys), , drop = FALSE]
    labels <- unique(vapply(seq_len(nrow(dup)), function(i) curve_label(dup[i, ]), ""))
    # the arguments that hold a repeated label
    held <- vapply(seq_along(keys), function(i) {
      any(vctrs::vec_in(keys[[i]], dup))
    }, logical(1))
    args <- ifelse(nzchar(nms), nms, paste0("..", seq_along(nms)))[held]
    prd_abort(c(
      "Each curve given to {.fn prd_bind} must have its own label.",
      "x" = "Repeated: {.val {labels}}, in {.arg {args}}.",
      "i" = "Name the arguments, e.g. {.code prd_bind(a = curve1, b = curve2)}."
    ), "curve")
  }
  bind_curves(parts)
}

#' Relabel a curve's model (estimates) or method (other curves), in its
#' rows and in its settings table.
#' @noRd
relabel_curve <- function(cv, name) {
  info <- attr(cv, "curves")
  if ("model" %in% names(cv)) {
    # one model takes the name, several "<name> <model>" (as metrics tables)
    models <- unique(as.character(cv$model))
    map <- stats::setNames(if (length(models) == 1L) name else
      paste(name, models), models)
    cv$model <- unname(map[as.character(cv$model)])
    if (!is.null(info)) {
      info <- info[info$model %in% models, , drop = FALSE]
      info$model <- unname(map[info$model])
    }
  } else {
    meth <- unique(as.character(cv$method))
    new <- if (length(meth) == 1L) name else paste(name, meth)
    map <- stats::setNames(new, meth)
    cv$method <- unname(map[as.character(cv$method)])
    if (!is.null(info)) {
      hit <- info$method %in% meth
      info$method[hit] <- unname(map[info$method[hit]])
    }
  }
  attr(cv, "curves") <- if (is.null(info)) NULL else vctrs::vec_unique(info)
  cv
}

#' The two sample sets of the plug-in estimators (prd_histogram(),
#' prd_kde_plugin()) as matrices: a synthpop object as its data frame and
#' missing codes (R/synds.R; `generated` is bound anew only then, so the
#' caller's matrix is not held twice), the categories of both sets encoded
#' alike (R/encode.R), the same columns.
#' @noRd
plugin_sets <- function(real, generated, call = rlang::caller_env()) {
  # several models (a list of sets, a grouped data frame): one curve each,
  # told how, rather than "not a matrix"
  if ((is.list(generated) && !is.data.frame(generated) &&
       !is_synds(generated)) || inherits(generated, "grouped_df")) {
    fn <- tryCatch(rlang::call_name(rlang::frame_call(call)),
                   error = function(e) NULL)
    if (is.null(fn)) fn <- "prd_histogram"
    prd_abort(c(
      "{.arg generated} must be one sample set: {.fn {fn}} compares one model with {.arg real}.",
      "x" = "It holds {length(split_models(generated, call = call))} sets.",
      "i" = "For several models, bind one curve each: {.code prd_bind(lapply(models, function(g) {fn}(real, g)))}."
    ), "input", call = call)
  }
  codes <- list()
  if (is_synds(generated)) {
    syn <- synds_single(generated, call = call)
    generated <- syn$generated
    codes <- syn$codes
  }
  levels <- category_levels(list(real, generated), codes)
  real <- as_samples(real, arg = "real", call = call, levels = levels)
  generated <- as_samples(generated, arg = "generated", call = call,
                          levels = levels)
  check_same_columns(real, generated, call = call)
  list(real = real, generated = generated)
}
