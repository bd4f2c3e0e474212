# The validity suite's scenarios of the kinds real embeddings show
# (validity_scenarios(kinds = ...), bench/validity.R; their data also serve
# bench/mixture.R and bench/smooth-marginal.R): overlapping classes with
# unequal spreads, independent heavy-tailed coordinates, a curved
# low-dimensional manifold, truncation. Every model carries its exact
# log-likelihood ratio `log_ratio(x)` = log q(x) - log p(x) at the rows of
# a matrix, which the suite scores on the curve's own evaluation rows
# (curve_eval_rows()): the oracle floor, the curve of the best classifier
# on those rows, so that an estimate's gap to the truth splits into the
# families' part (estimate - oracle) and the sample's (oracle - truth).
# Internal: not exported.

#' The groups of these kinds, by name (validity_scenarios(kinds = ...))
#' @noRd
validity_kinds <- c("clusters", "clusters_lowrank", "heavy_t3",
                    "heavy_laplace", "manifold", "truncation")

#' Values (draws times dimensions) of one Monte Carlo pass over the
#' heavy-tailed coordinates: the truth's draws are generated and reduced
#' to their log-likelihood ratio in chunks of this many values.
#' @noRd
heavy_chunk_values <- 2e7

#' Largest draws times dimensions of a heavy-tailed truth: at d = 2,048
#' min(truth_n, 97,656) draws per distribution.
#' @noRd
heavy_truth_values <- 2e8

#' The positions of `kinds` in validity_kinds; an unknown kind is a
#' classed error (prdcurve_error_argument) naming them
#' @noRd
check_kinds <- function(kinds) {
  i <- match(kinds, validity_kinds)
  if (anyNA(i)) {
    kind <- kinds[is.na(i)]
    prd_abort("{.arg kinds} must be among {.val {validity_kinds}}, not {.val {kind}}.",
              "argument")
  }
  i
}

#' One group of validity_kinds at dimension d, each with its own seed
#' (seed + 7919 d + 104729 times its position in validity_kinds), so that
#' a group's data and truths do not depend on which others are built.
#' @return list(name, real, models), as validity_scenarios()'s groups.
#' @noRd
validity_kind_group <- function(kind, d, seed = 1L, truth_n = 1e6,
                                angles = 1001, which = NULL) {
  i <- check_kinds(kind)
  set.seed(seed + 7919L * d + 104729L * i)
  kept <- validity_models(which)
  real <- switch(kind,
    clusters = kind_clusters(d, kept$add, truth_n, angles, rank = 0L),
    clusters_lowrank = kind_clusters(d, kept$add, truth_n, angles, rank = 4L),
    heavy_t3 = kind_heavy("t3", d, kept$add, truth_n, angles),
    heavy_laplace = kind_heavy("laplace", d, kept$add, truth_n, angles),
    manifold = kind_manifold(d, kept$add, truth_n, angles),
    truncation = kind_truncation(d, kept$add, angles))
  list(name = kind, real = real, models = kept$take(), classes = attr(real, "classes"))
}

# ---- overlapping classes ---------------------------------------------------

#' A mixture of K Gaussian classes whose covariances are low rank plus
#' diagonal, with its log-density and a sampler of a sufficient statistic.
#'
#' In whitened coordinates x' = x / `scale` (a length-d vector; NULL: 1)
#' class l is N(mu_l, sd_l^2 I + W_l W_l^T), W_l a d x rank matrix of
#' `loadings` (NULL: rank 0, isotropic classes); in x its covariance is
#' sd_l^2 D + (D^(1/2) W_l)(D^(1/2) W_l)^T, D = diag(scale^2). `basis`, an
#' orthonormal d x r matrix whose span holds every centre and loading
#' (shared by the distributions to be compared), reduces x to (y, w): y =
#' B^T x' (r numbers) and w = |x'|^2 - |y|^2. The density depends on x
#' through (y, w) alone: with v = y - B^T mu_l and A_l = B^T W_l,
#' log N = -(d log 2 pi + (d - k) log sd_l^2 + log det(sd_l^2 I + A_l^T A_l)
#'   + (|v|^2 - u^T (sd_l^2 I + A_l^T A_l)^-1 u) / sd_l^2 + w / sd_l^2) / 2,
#' u = A_l^T v (Woodbury), and under class l, y = B^T mu_l + sd_l g + A_l h
#' and w = sd_l^2 chi^2_(d - r), independent (g, h standard normal): so the
#' Monte Carlo truth draws (y, w) in O(r) a draw, whatever d.
#' `sample(n)` draws x in d dimensions (for rank 0 and no scale, the draws
#' of gaussian_mixture()'s sampler); `log_density(x)` is exact (the -sum log
#' scale of the whitening included); `reduce(x)`, `sample_reduced(n)` and
#' `log_density_reduced(z)` work on (y, w), an n x (r + 1) matrix.
#' @noRd
class_mixture <- function(centres, sd, weights, basis, loadings = NULL,
                          scale = NULL) {
  K <- nrow(centres)
  d <- ncol(centres)
  r <- ncol(basis)
  sd <- rep_len(sd, K)
  weights <- weights / sum(weights)
  keep <- which(weights > 0)
  C <- centres %*% basis
  A <- if (!is.null(loadings)) lapply(loadings, function(W) crossprod(basis, W))
  log_scale <- if (is.null(scale)) 0 else sum(log(scale))
  # per class: the inverse Cholesky factor of sd^2 I + A^T A, log det
  fac <- lapply(seq_len(K), function(l) {
    if (is.null(A)) return(list(ld = d * log(sd[l]^2)))
    k <- ncol(A[[l]])
    R <- chol(sd[l]^2 * diag(k) + crossprod(A[[l]]))
    list(Rinv = backsolve(R, diag(k)),
         ld = (d - k) * log(sd[l]^2) + 2 * sum(log(diag(R))))
  })
  draw <- function(n) {
    if (K == 1L) rep(1L, n) else sample.int(K, n, replace = TRUE, prob = weights)
  }
  sample <- function(n) {
    comp <- draw(n)
    out <- matrix(0, n, d)
    for (l in unique(comp)) {
      idx <- which(comp == l)
      m <- length(idx)
      z <- matrix(stats::rnorm(m * d), m, d) * sd[l]
      if (!is.null(loadings)) {
        z <- z + matrix(stats::rnorm(m * ncol(loadings[[l]])), m) %*% t(loadings[[l]])
      }
      out[idx, ] <- z + rep(centres[l, ], each = m)
    }
    if (!is.null(scale)) out <- out * rep(scale, each = n)
    out
  }
  reduce <- function(x) {
    if (!is.null(scale)) x <- x / rep(scale, each = nrow(x))
    y <- x %*% basis
    cbind(y, pmax(rowSums(x^2) - rowSums(y^2), 0))
  }
  sample_reduced <- function(n) {
    comp <- draw(n)
    y <- matrix(stats::rnorm(n * r), n, r) * sd[comp] + C[comp, , drop = FALSE]
    if (!is.null(A)) {
      for (l in unique(comp)) {
        idx <- which(comp == l)
        h <- matrix(stats::rnorm(length(idx) * ncol(A[[l]])), length(idx))
        y[idx, ] <- y[idx, ] + h %*% t(A[[l]])
      }
    }
    cbind(y, sd[comp]^2 * stats::rchisq(n, d - r))
  }
  log_density_reduced <- function(z) {
    y <- z[, seq_len(r), drop = FALSE]
    w <- z[, r + 1L]
    n <- nrow(z)
    # |y - c_l|^2 for every class by one product
    yy <- rowSums(y^2)
    v2 <- outer(yy, rowSums(C^2), "+") - 2 * tcrossprod(y, C)
    comps <- vapply(keep, function(l) {
      q <- v2[, l]
      if (!is.null(A)) {
        u <- (y %*% A[[l]] - rep(drop(C[l, ] %*% A[[l]]), each = n)) %*% fac[[l]]$Rinv
        q <- q - rowSums(u^2)
      }
      log(weights[l]) - 0.5 * (d * log(2 * pi) + fac[[l]]$ld + (q + w) / sd[l]^2)
    }, numeric(n))
    if (!is.matrix(comps)) comps <- matrix(comps, nrow = n)
    log_sum_exp(comps) - log_scale
  }
  list(sample = sample, classes = draw, reduce = reduce, sample_reduced = sample_reduced,
       log_density_reduced = log_density_reduced,
       log_density = function(x) log_density_reduced(reduce(x)), d = d)
}

#' Overlapping classes: `classes` Gaussian classes in d dimensions, centres
#' drawn N(0, (spread / sqrt(2 d))^2 I) (so about `spread` apart whatever
#' d), class standard deviations geometric from sd_range[1] to sd_range[2],
#' equal weights. rank > 0: each class also has `rank` directions of extra
#' variance (loadings N(0, loading^2 / d), about `loading` long, so a
#' variance of about sd^2 + loading^2 along each), and the whole space a
#' shared diagonal scale with variances proportional to 1 / sqrt(i) (mean
#' 1): low-rank-plus-diagonal class covariances, as embeddings have. The
#' centres are drawn first (the RNG's first classes x d normals, as
#' bench/mixture.R always did). Models: `drop` (classes 1-3 weight 0),
#' `reweight` (classes 1-3 three times as heavy), `widen` (every class's
#' covariance times 1.15^2).
#' @return list(real, models = list(drop, reweight, widen)) of
#'   class_mixture() objects sharing one basis.
#' @noRd
cluster_scenario <- function(d, classes = 10L, spread = 3,
                             sd_range = c(0.85, 1.15), rank = 0L,
                             loading = 2) {
  means <- matrix(stats::rnorm(classes * d), classes) * spread / sqrt(2 * d)
  sd <- exp(seq(log(sd_range[1]), log(sd_range[2]), length.out = classes))
  loadings <- scale <- NULL
  if (rank > 0L) {
    loadings <- lapply(seq_len(classes), function(l) {
      matrix(stats::rnorm(d * rank), d) * loading / sqrt(d)
    })
    scale <- 1 / seq_len(d)^0.25
    scale <- scale / sqrt(mean(scale^2))
  }
  span <- if (is.null(loadings)) t(means) else cbind(t(means), do.call(cbind, loadings))
  qrs <- qr(span)
  basis <- qr.Q(qrs)[, seq_len(qrs$rank), drop = FALSE]
  mix <- function(sd, weights, loadings) {
    class_mixture(means, sd, weights, basis, loadings, scale)
  }
  w3 <- function(a) rep(c(a, 1), c(3L, classes - 3L))
  wide <- if (!is.null(loadings)) lapply(loadings, `*`, 1.15)
  list(real = mix(sd, rep(1, classes), loadings),
       models = list(drop = mix(sd, w3(0), loadings),
                     reweight = mix(sd, w3(3), loadings),
                     widen = mix(1.15 * sd, rep(1, classes), wide)))
}

#' The true curve of two class_mixture() objects sharing a basis: prd_truth()
#' on the reduced statistic (y, w), n draws each.
#' @noRd
cluster_truth <- function(p, q, n, angles = 1001) {
  prd_truth(p$log_density_reduced, q$log_density_reduced, p$sample_reduced,
            q$sample_reduced, n = n, angles = angles)
}

#' The clusters groups: 16 classes (cluster_scenario()), isotropic (rank 0;
#' models clusters_drop, clusters_reweight, clusters_widen) or low rank plus
#' diagonal (rank 4; lowrank_drop, ...); returns the real sampler.
#' @noRd
kind_clusters <- function(d, add, truth_n, angles, rank) {
  sc <- cluster_scenario(d, classes = 16L, rank = rank)
  prefix <- if (rank > 0L) "lowrank_" else "clusters_"
  what <- c(drop = "classes 1-3 of 16 dropped",
            reweight = "classes 1-3 of 16 three times as heavy",
            widen = "every class 15% wider")
  for (m in names(sc$models)) {
    local({
      q <- sc$models[[m]]
      add(paste0(prefix, m), what[[m]], q$sample, function() cluster_truth(sc$real, q, truth_n, angles),
          log_ratio = function(x) {
            z <- sc$real$reduce(x)
            q$log_density_reduced(z) - sc$real$log_density_reduced(z)
          }, form = form_classes(rank, whiten = rank > 0L), classes = q$classes)
    })
  }
  # (the labeller of the real set's classes: validity_draw())
  structure(sc$real$sample, classes = sc$real$classes)
}

# ---- heavy-tailed coordinates ----------------------------------------------

#' n draws of d independent coordinates, Student t with 3 degrees of
#' freedom ("t3") or standard Laplace ("laplace"), times s.
#' @noRd
heavy_draw <- function(kind, n, d, s = 1) {
  v <- if (kind == "t3") stats::rt(n * d, 3) else
    sign(stats::runif(n * d) - 0.5) * stats::rexp(n * d)
  matrix(v, n) * s
}

#' The exact log-density of heavy_draw(kind, , d, s) at the rows of z.
#' @noRd
heavy_logdens <- function(kind, z, s = 1) {
  rowSums(if (kind == "t3") stats::dt(z / s, 3, log = TRUE) - log(s) else
    -abs(z) / s - log(2 * s))
}

#' The heavy-tailed groups: real = d independent coordinates (heavy_draw()),
#' models `<kind>_wider_1.1` and `<kind>_narrower_0.9` (every coordinate
#' scaled; kind t3 or laplace). Truth:
#' prd_truth() on the log-likelihood ratio itself (the sum over coordinates
#' of the exact log-density ratios, drawn in chunks of heavy_chunk_values
#' values), min(truth_n, heavy_truth_values / d) draws.
#' @noRd
kind_heavy <- function(kind, d, add, truth_n, angles) {
  n_truth <- max(1000, min(truth_n, floor(heavy_truth_values / d)))
  lab <- if (kind == "t3") "Student t (3 df)" else "Laplace"
  for (s in c(1.1, 0.9)) {
    local({
      s <- s  # the loop variable changes before the closures are called
      lr <- function(x) heavy_logdens(kind, x, s) - heavy_logdens(kind, x, 1)
      stat <- function(scale) {
        function(n) {
          out <- numeric(n)
          step <- max(1, floor(heavy_chunk_values / d))
          for (from in seq(1, n, by = step)) {
            m <- min(step, n - from + 1)
            out[from:(from + m - 1)] <- lr(heavy_draw(kind, m, d, scale))
          }
          matrix(out)
        }
      }
      nm <- paste0(kind, if (s > 1) "_wider_1.1" else "_narrower_0.9")
      add(nm, sprintf("%s coordinates times %s", lab, s),
          function(n) heavy_draw(kind, n, d, s),
          function() {
            prd_truth(function(z) rep(0, nrow(z)), function(z) z[, 1],
                      stat(1), stat(s), n = n_truth, angles = angles)
          },
          log_ratio = lr, form = form_heavy(kind))
    })
  }
  function(n) heavy_draw(kind, n, d, 1)
}

# ---- a curved manifold ---------------------------------------------------------

#' An injective smooth map of R^k into R^d (d >= k + 1): z -> U (z, a
#' sin(W z + b)), U a random d x (k + m) matrix with orthonormal columns, m
#' = min(32, d - k) curved coordinates (W with N(0, 4 / k) entries, b
#' uniform on [0, 2 pi), a = sqrt(2 k / m), so the curved part is about as
#' long as z). Its inverse on the image is z = (U^T x)[, 1:k].
#' @return list(embed(z), latent(x), k, d)
#' @noRd
manifold_map <- function(k, d) {
  m <- min(32L, d - k)
  U <- qr.Q(qr(matrix(stats::rnorm(d * (k + m)), d)))
  W <- matrix(stats::rnorm(m * k), m) * 2 / sqrt(k)
  b <- stats::runif(m, 0, 2 * pi)
  a <- sqrt(2 * k / m)
  list(embed = function(z) {
    z <- as.matrix(z)
    cbind(z, a * sin(z %*% t(W) + rep(b, each = nrow(z)))) %*% t(U)
  }, latent = function(x) x %*% U[, seq_len(k), drop = FALSE], k = k, d = d)
}

#' The manifold group: latent N(0, I_8) embedded by manifold_map() (k = 8,
#' or d - 1 below d = 9); models `latent_shift_1` (latent mean + e_1),
#' `latent_scale_0.8`, `latent_scale_1.2` (latent N(0, s^2 I)). A PR curve
#' is invariant under an injective map (the likelihood ratio of the images
#' is that of the latents), so the truths are the latent ones: exact for the
#' shift (prd_truth_gaussian()), and for the scales prd_truth() on |z|^2
#' (chi-square laws), as validity_scenarios()'s radial truths.
#' @noRd
kind_manifold <- function(d, add, truth_n, angles) {
  k <- min(8L, d - 1L)
  map <- manifold_map(k, d)
  latent <- function(n, s = 1, shift = 0) {
    z <- matrix(stats::rnorm(n * k), n, k) * s
    z[, 1] <- z[, 1] + shift
    z
  }
  lg <- function(r2, s) -0.5 * k * log(2 * pi) - k * log(s) - r2 / (2 * s^2)
  e1 <- c(1, rep(0, k - 1L))
  add("latent_shift_1", sprintf("latent mean + e_1 (%d latent dimensions)", k),
      function(n) map$embed(latent(n, shift = 1)),
      function() prd_truth_gaussian(rep(0, k), e1, angles = angles),
      log_ratio = function(x) {
        z <- map$latent(x)
        z[, 1] - 0.5
      }, form = form_latent(map$latent, form_iso_shared()))
  for (s in c(0.8, 1.2)) {
    local({
      s <- s
      add(paste0("latent_scale_", s), sprintf("latent N(0, %s^2 I)", s),
          function(n) map$embed(latent(n, s)),
          function() {
            prd_truth(function(z) lg(z[, 1], 1), function(z) lg(z[, 1], s),
                      function(n) matrix(stats::rchisq(n, k)),
                      function(n) matrix(s^2 * stats::rchisq(n, k)),
                      n = truth_n, angles = angles)
          },
          log_ratio = function(x) {
            r2 <- rowSums(map$latent(x)^2)
            lg(r2, s) - lg(r2, 1)
          }, form = form_latent(map$latent, form_iso()))
    })
  }
  function(n) map$embed(latent(n))
}

# ---- truncation -----------------------------------------------------------------

#' The truncation group: real N(0, I_d), models P restricted to a set A of
#' P-mass a ("sharper" models): `trunc_ball_0.5` and `trunc_ball_0.8` (the
#' ball |x|^2 <= the chi-square quantile a: the truncation trick),
#' `trunc_slab_0.7` (|u . x| <= the normal quantile (1 + a) / 2, u a random
#' unit vector) and `trunc_half_0.6` (the half-space u . x >= the normal
#' quantile 1 - a, the same u: one edge, off P's mean). q / p is 1 / a
#' on A and 0 outside, so the true curve is
#' the rectangle of maximal precision 1 and maximal recall a,
#' prd_discrete(c(a, 1 - a), c(1, 0)) (exact).
#' @noRd
kind_truncation <- function(d, add, angles) {
  u <- stats::rnorm(d)
  u <- u / sqrt(sum(u^2))
  gauss <- function(n) matrix(stats::rnorm(n * d), n, d)
  rect <- function(a) function() prd_discrete(c(a, 1 - a), c(1, 0), angles = angles)
  inside <- function(keep, a) ifelse(keep, -log(a), -Inf)
  for (a in c(0.5, 0.8)) {
    local({
      a <- a
      cut <- stats::qchisq(a, d)
      add(paste0("trunc_ball_", a), sprintf("P within its ball of mass %s", a),
          function(n) {
            e <- gauss(n)
            e * sqrt(stats::qchisq(stats::runif(n) * a, d) / rowSums(e^2))
          }, rect(a),
          log_ratio = function(x) inside(rowSums(x^2) <= cut, a), form = form_ball())
    })
  }
  a <- 0.7
  cut <- stats::qnorm((1 + a) / 2)
  add("trunc_slab_0.7", "P within the slab |u . x| <= c of mass 0.7",
      function(n) {
        e <- gauss(n)
        t <- stats::qnorm(stats::runif(n, stats::pnorm(-cut), stats::pnorm(cut)))
        e + outer(t - drop(e %*% u), u)
      }, rect(a),
      log_ratio = function(x) inside(abs(drop(x %*% u)) <= cut, a))
  local({
    a <- 0.6
    edge <- stats::qnorm(1 - a)
    add("trunc_half_0.6", "P within the half-space u . x >= c of mass 0.6",
        function(n) {
          e <- gauss(n)
          t <- stats::qnorm(stats::runif(n, stats::pnorm(edge), 1))
          e + outer(t - drop(e %*% u), u)
        }, rect(a),
        log_ratio = function(x) inside(drop(x %*% u) >= edge, a))
  })
  gauss
}

# ---- the oracle floor ----------------------------------------------------------

#' The evaluation rows prd_curve(real, gens, split = split, repeats =
#' repeats) draws when called with the RNG in the state this function
#' finds it in (it draws the same numbers, so restore the state before the
#' call): prd_curve() puts each set's rows in canonical order
#' (canonical_order()), draws the seeds of its repeats (repeat_seeds()) and
#' then partitions them (resolve_model_splits()) before any other draw.
#' `gens` is a named list of matrices. Returns list(real = rows of real,
#' generated = list of rows of each generated set, as given (not
#' canonical) and sorted: the first split's; repeats = the number of
#' splits the curve averages, whose floors one split's rows do not give).
#' @noRd
curve_eval_rows <- function(real, gens, split = 0.5, repeats = NULL) {
  if (is.null(names(gens))) names(gens) <- paste0("model", seq_along(gens))
  repeats <- resolve_repeats(repeats, split, list(real = real, generated = gens))
  repeat_seeds(repeats)
  sp <- resolve_model_splits(split, real, gens)
  back <- function(x, rows) {
    x <- as.matrix(x)
    if (!is.double(x)) storage.mode(x) <- "double"
    sort(canonical_order(x)[rows])
  }
  list(real = back(real, split_eval(sp[[1]], 1)),
       generated = lapply(stats::setNames(names(gens), names(gens)),
                          function(nm) back(gens[[nm]], split_eval(sp[[nm]], 2))),
       repeats = repeats)
}

#' The oracle floor of one model: the PR curve (prd_scores()) of the exact
#' log-likelihood ratio `log_ratio` on the evaluation rows `rows`
#' (list(real, generated) of row numbers) of the sets `real`, `generated`,
#' with the curves' grid of `angles` values.
#' @noRd
oracle_curve <- function(log_ratio, real, generated, rows, angles = 1001) {
  prd_scores(-log_ratio(real[rows$real, , drop = FALSE]),
             -log_ratio(generated[rows$generated, , drop = FALSE]),
             label = "oracle", angles = angles)
}
