# The validity suite's estimation floor (SPEC.md section 7, "Floors"): for
# every scenario, its true parametric form fitted by maximum likelihood on
# the fit rows of prd_curve()'s split (the rows of each set not among
# curve_eval_rows()'s evaluation rows) and the PR curve of the fitted
# log-likelihood ratio on the evaluation rows, as the oracle floor's
# (oracle_curve(), R/validity-kinds.R). The oracle measures the noise of
# the evaluation rows; the estimation floor adds that of fitting the
# scenario's own form on the fit rows: an estimator that knows the form
# reads this far from the truth, and a family's error beyond it is its
# own. A form is `form(real_fit, gen_fit)`, the fit rows of each set (a
# matrix or data frame with the attribute "classes": each row's class
# where the scenario is a class mixture, else NULL), returning the fitted
# log-likelihood ratio, a function of a matrix (data frame) of points
# giving log q - log p at its rows. Internal: not exported.

# ---- the rows, the draws and the curve ------------------------------------------

#' curve_eval_rows() for a call whose sets may be data frames (tables:
#' their categorical columns encoded as prd_curve() does put the continuous
#' columns first, so the canonical order is that of data.matrix()'s), with
#' the complementary fit rows.
#' @return list(eval = list(real, generated = named list), fit = the same
#'   shape): row numbers of the sets as given, sorted.
#' @noRd
validity_floor_rows <- function(real, gens, split = 0.5, repeats = NULL) {
  num <- function(x) if (is.data.frame(x)) data.matrix(x) else x
  ev <- curve_eval_rows(num(real), lapply(gens, num), split = split,
                        repeats = repeats)
  rest <- function(x, rows) setdiff(seq_len(nrow(x)), rows)
  list(eval = ev,
       fit = list(real = rest(real, ev$real),
                  generated = Map(rest, gens, ev$generated)))
}

#' The sets of one task of the suite, drawn as `g$real(n)` and every
#' `g$models[[m]]$sample(n)` draw them (the same numbers, in the same
#' order), with each row's class where the group (`g$classes`) or the
#' model (`classes`) has a labeller: a function of n that draws the
#' classes as the sampler's first draws do, called with the RNG state
#' restored afterwards, so that the sampler then draws the same classes.
#' @return list(real, gens, classes = list(real, generated = named list)).
#' @noRd
validity_draw <- function(g, n) {
  one <- function(sampler, labeller) {
    cl <- NULL
    if (!is.null(labeller)) {
      state <- get(".Random.seed", globalenv())
      cl <- labeller(n)
      assign(".Random.seed", state, globalenv())
    }
    list(x = sampler(n), classes = cl)
  }
  r <- one(g$real, g$classes)
  gs <- lapply(g$models, function(m) one(m$sample, m$classes))
  list(real = r$x, gens = lapply(gs, `[[`, "x"),
       classes = list(real = r$classes, generated = lapply(gs, `[[`, "classes")))
}

#' The estimation floor of one model: `form` fitted on the fit rows of
#' `real` and `generated` (`rows$fit`, each set's rows with their
#' `classes`), scored on the evaluation rows (`rows$eval`) as the oracle
#' (prd_scores() of the negated log ratio, label "floor"). Points where
#' both fitted densities vanish (log ratio NaN) are ties (0).
#' @param rows list(fit = list(real, generated), eval = list(real,
#'   generated)) of row numbers of this model's sets.
#' @param classes list(real, generated) of class vectors (NULL: none).
#' @noRd
floor_curve <- function(form, real, generated, rows, classes = NULL,
                        angles = 1001) {
  part <- function(x, r, cl) {
    out <- x[r, , drop = FALSE]
    attr(out, "classes") <- if (!is.null(cl)) cl[r]
    out
  }
  lr <- form(part(real, rows$fit$real, classes$real),
             part(generated, rows$fit$generated, classes$generated))
  score <- function(x, r) {
    s <- -lr(x[r, , drop = FALSE])
    s[is.nan(s)] <- 0
    s
  }
  prd_scores(score(real, rows$eval$real), score(generated, rows$eval$generated),
             label = "floor", angles = angles)
}

# ---- Gaussian forms --------------------------------------------------------------

#' Maximum-likelihood isotropic Gaussian N(m, v I) of the rows of x:
#' list(mean, ss = the sum of squared deviations, n, d).
#' @noRd
iso_moments <- function(x) {
  m <- colMeans(x)
  list(mean = m, ss = sum((x - rep(m, each = nrow(x)))^2), n = nrow(x), d = ncol(x))
}

#' log N(x; m, v I) at the rows of x
#' @noRd
iso_logdens <- function(x, m, v) {
  -0.5 * (ncol(x) * log(2 * pi * v) + rowSums((x - rep(m, each = nrow(x)))^2) / v)
}

#' Form: one isotropic Gaussian per set with a variance shared by the two
#' (the equal-covariance form of the mean shifts and of Q = P): the means
#' and the pooled variance by maximum likelihood; the log ratio is linear.
#' @noRd
form_iso_shared <- function() {
  function(real_fit, gen_fit) {
    p <- iso_moments(real_fit)
    q <- iso_moments(gen_fit)
    v <- (p$ss + q$ss) / ((p$n + q$n) * p$d)
    function(x) iso_logdens(x, q$mean, v) - iso_logdens(x, p$mean, v)
  }
}

#' Form: one isotropic Gaussian per set, its own mean and scalar variance
#' (the variance deflation and inflation).
#' @noRd
form_iso <- function() {
  function(real_fit, gen_fit) {
    p <- iso_moments(real_fit)
    q <- iso_moments(gen_fit)
    vp <- p$ss / (p$n * p$d)
    vq <- q$ss / (q$n * q$d)
    function(x) iso_logdens(x, q$mean, vq) - iso_logdens(x, p$mean, vp)
  }
}

#' Form: one Gaussian per set with a diagonal covariance shared by the two
#' (the anisotropic shifts): the means and the pooled per-coordinate
#' variances; the log ratio is linear.
#' @noRd
form_diag_shared <- function() {
  function(real_fit, gen_fit) {
    mp <- colMeans(real_fit)
    mq <- colMeans(gen_fit)
    v <- (colSums((real_fit - rep(mp, each = nrow(real_fit)))^2) +
            colSums((gen_fit - rep(mq, each = nrow(gen_fit)))^2)) /
      (nrow(real_fit) + nrow(gen_fit))
    w <- (mq - mp) / v
    c0 <- sum((mq^2 - mp^2) / v) / 2
    function(x) drop(x %*% w) - c0
  }
}

#' Maximum-likelihood location m and scale s (covariance s^2 I times
#' nu / (nu - 2)) of a multivariate Student t with known `nu` degrees of
#' freedom and scatter s^2 I: the EM iteration (Lange, Little and Taylor
#' 1989, JASA 84, 881-896, section 3), weights (nu + d) / (nu + delta / s^2),
#' delta = |x - m|^2, from the sample mean and variance.
#' @return list(mean, s2, loglik(x) = the fitted log-density at rows of x)
#' @noRd
t_fit <- function(x, nu, iter = 100L, tol = 1e-10) {
  n <- nrow(x)
  d <- ncol(x)
  m <- colMeans(x)
  s2 <- sum((x - rep(m, each = n))^2) / (n * d)
  for (it in seq_len(iter)) {
    delta <- rowSums((x - rep(m, each = n))^2)
    w <- (nu + d) / (nu + delta / s2)
    m <- colSums(x * w) / sum(w)
    s2_new <- sum(w * rowSums((x - rep(m, each = n))^2)) / (n * d)
    done <- abs(s2_new - s2) < tol * s2
    s2 <- s2_new
    if (done) break
  }
  list(mean = m, s2 = s2, loglik = function(z) {
    delta <- rowSums((z - rep(m, each = nrow(z)))^2)
    lgamma((nu + d) / 2) - lgamma(nu / 2) - 0.5 * d * log(nu * pi * s2) -
      (nu + d) / 2 * log1p(delta / (nu * s2))
  })
}

#' Form: P an isotropic Gaussian (mean, scalar variance), Q a multivariate
#' Student t with `nu` degrees of freedom and isotropic scatter (location
#' and scale by maximum likelihood, t_fit()).
#' @noRd
form_t <- function(nu) {
  function(real_fit, gen_fit) {
    p <- iso_moments(real_fit)
    vp <- p$ss / (p$n * p$d)
    q <- t_fit(gen_fit, nu)
    function(x) q$loglik(x) - iso_logdens(x, p$mean, vp)
  }
}

#' Keys of the rows of x (their first 8 coordinates, 17 significant digits)
#' @noRd
atom_keys <- function(x) {
  x <- x[, seq_len(min(8L, ncol(x))), drop = FALSE]
  do.call(paste, c(lapply(seq_len(ncol(x)), function(j) sprintf("%.17g", x[, j])),
                   sep = ","))
}

#' Form: P continuous (an isotropic Gaussian), Q discrete (the mode
#' collapse): Q's atoms are the distinct rows of its fit rows. The two are
#' mutually singular: log q / p is Inf at an atom and -Inf elsewhere.
#' @noRd
form_atoms <- function() {
  function(real_fit, gen_fit) {
    atoms <- unique(atom_keys(gen_fit))
    function(x) ifelse(atom_keys(x) %in% atoms, Inf, -Inf)
  }
}

# ---- class mixtures ------------------------------------------------------------

#' Maximum-likelihood probabilistic PCA (Tipping and Bishop 1999, JRSS B 61,
#' 611-622, equations 7-8) of the rows of x: N(m, s2 I + W W^T), W of rank
#' k: s2 the mean of the d - k smallest eigenvalues of the covariance
#' (divisor n), the k largest kept as they are (at least s2). With k = 0,
#' the isotropic Gaussian N(m, s2 I).
#' @return list(mean, s2, U (d x k), lambda (k)), read by ppca_logdens().
#' @noRd
ppca_fit <- function(x, k) {
  n <- nrow(x)
  d <- ncol(x)
  m <- colMeans(x)
  xc <- x - rep(m, each = n)
  total <- sum(xc^2) / n
  k <- min(k, n - 1L, d - 1L)
  if (k <= 0L) return(list(mean = m, s2 = total / d, U = NULL, lambda = numeric()))
  sv <- svd(xc, nu = 0, nv = k)
  lambda <- sv$d[seq_len(k)]^2 / n
  s2 <- (total - sum(lambda)) / (d - k)
  list(mean = m, s2 = s2, U = sv$v, lambda = pmax(lambda, s2))
}

#' log N(x; m, s2 I + U diag(lambda - s2) U^T) at the rows of x
#' @noRd
ppca_logdens <- function(x, f) {
  d <- ncol(x)
  v <- x - rep(f$mean, each = nrow(x))
  q <- rowSums(v^2) / f$s2
  ld <- d * log(f$s2)
  if (length(f$lambda)) {
    u <- v %*% f$U
    q <- q - drop(u^2 %*% (1 / f$s2 - 1 / f$lambda))
    ld <- ld + sum(log(f$lambda / f$s2))
  }
  -0.5 * (d * log(2 * pi) + ld + q)
}

#' Form: each set a mixture of Gaussian classes with the class labels known
#' (the attribute "classes" of the fit rows; none: one class): each class's
#' weight (its share of the rows), mean and covariance by maximum
#' likelihood, the covariance isotropic (rank 0) or low rank plus
#' isotropic (ppca_fit(), rank k) after a diagonal whitening shared by the
#' two sets (`whiten`: the real set's pooled within-class per-coordinate
#' variances, scaled to mean 1; a moment estimate of the shared diagonal
#' scale of clusters_lowrank, not a joint maximum of the likelihood).
#' @noRd
form_classes <- function(rank = 0L, whiten = FALSE) {
  function(real_fit, gen_fit) {
    scale <- NULL
    if (whiten) {
      cl <- attr(real_fit, "classes")
      if (is.null(cl)) cl <- rep(1L, nrow(real_fit))
      within <- real_fit - rowsum(real_fit, cl)[as.character(cl), , drop = FALSE] /
        as.vector(table(cl)[as.character(cl)])
      scale <- sqrt(colMeans(within^2))
      scale <- scale / sqrt(mean(scale^2))
    }
    fit_set <- function(x) {
      cl <- attr(x, "classes")
      if (is.null(cl)) cl <- rep(1L, nrow(x))
      if (!is.null(scale)) x <- x / rep(scale, each = nrow(x))
      lapply(split(seq_len(nrow(x)), cl), function(r) {
        list(w = length(r) / nrow(x), f = ppca_fit(x[r, , drop = FALSE], rank))
      })
    }
    logdens <- function(fits, x) {
      comps <- vapply(fits, function(c) log(c$w) + ppca_logdens(x, c$f), numeric(nrow(x)))
      if (!is.matrix(comps)) comps <- matrix(comps, nrow = nrow(x))
      log_sum_exp(comps)
    }
    p <- fit_set(real_fit)
    q <- fit_set(gen_fit)
    function(x) {
      if (!is.null(scale)) x <- x / rep(scale, each = nrow(x))
      logdens(q, x) - logdens(p, x)
    }
  }
}

#' The labeller of a gaussian_mixture() sampler: the classes its first
#' draw picks (validity_draw()).
#' @noRd
mixture_classes <- function(gm) {
  K <- length(gm$weights)
  function(n) if (K == 1L) rep(1L, n) else sample.int(K, n, replace = TRUE, prob = gm$weights)
}

# ---- heavy-tailed coordinates and tables -----------------------------------------

#' Per-coordinate maximum-likelihood scale of centred Student t(3)
#' ("t3": EM with weights (nu + 1) / (nu + z^2 / s^2)) or Laplace
#' ("laplace": the mean absolute value) coordinates.
#' @noRd
heavy_scale <- function(kind, x, iter = 200L, tol = 1e-10) {
  if (kind == "laplace") return(colMeans(abs(x)))
  nu <- 3
  x2 <- x^2
  s2 <- colMeans(x2) / 3  # t(3) has variance 3 s^2
  for (it in seq_len(iter)) {
    w <- (nu + 1) / (nu + x2 / rep(s2, each = nrow(x)))
    s2_new <- colMeans(w * x2)
    done <- max(abs(s2_new - s2) / s2) < tol
    s2 <- s2_new
    if (done) break
  }
  sqrt(s2)
}

#' log-density of independent centred coordinates of the law `kind` with
#' per-coordinate scales s, at the rows of x
#' @noRd
heavy_logdens_scales <- function(kind, x, s) {
  z <- x / rep(s, each = nrow(x))
  rowSums(if (kind == "t3") stats::dt(z, 3, log = TRUE) else -abs(z) - log(2)) - sum(log(s))
}

#' Form: independent centred coordinates of the known law `kind` (heavy_t3,
#' heavy_laplace), a scale per coordinate and set (heavy_scale()).
#' @noRd
form_heavy <- function(kind) {
  function(real_fit, gen_fit) {
    sp <- heavy_scale(kind, real_fit)
    sq <- heavy_scale(kind, gen_fit)
    function(x) heavy_logdens_scales(kind, x, sq) - heavy_logdens_scales(kind, x, sp)
  }
}

#' Form of the tabular group (validity_tabular()): per set the frequencies
#' of the 10 cells of (sex, region) and, where the model's categories
#' change x1 (`by`: "sex" for x1 given sex = M, "region" for x1 given
#' region = a; NULL: x1 independent of them), a Gaussian of x1 (mean and
#' variance) on each side of that category; the other columns have the same
#' law in P and Q and cancel.
#' @noRd
form_tabular <- function(by = NULL) {
  side <- function(x) {
    if (is.null(by)) return(rep(1L, nrow(x)))
    if (by == "sex") 1L + (x$sex == "M") else 1L + (x$region == "a")
  }
  cell <- function(x) paste(x$sex, x$region)
  fit_set <- function(x) {
    s <- side(x)
    g <- lapply(split(x$x1, s), function(v) c(mean(v), mean((v - mean(v))^2)))
    list(freq = table(cell(x)) / nrow(x), g = g)
  }
  logdens <- function(f, x) {
    fr <- as.vector(f$freq[cell(x)])
    fr[is.na(fr)] <- 0
    out <- log(fr)
    if (!is.null(by)) {
      s <- side(x)
      pars <- f$g[as.character(s)]
      out <- out + stats::dnorm(x$x1, vapply(pars, `[`, 0, 1),
                                sqrt(vapply(pars, `[`, 0, 2)), log = TRUE)
    }
    out
  }
  function(real_fit, gen_fit) {
    p <- fit_set(real_fit)
    q <- fit_set(gen_fit)
    function(x) logdens(q, x) - logdens(p, x)
  }
}

# ---- a manifold with its map, a truncated ball -------------------------------

#' Form of the manifold group (kind_manifold()): the latent Gaussian's form
#' `form` (form_iso_shared() for the shift, form_iso() for the scales)
#' fitted on the latent coordinates `latent(x)` of the fit rows, the
#' injective map being part of the scenario's form (known, not fitted).
#' @noRd
form_latent <- function(latent, form) {
  function(real_fit, gen_fit) {
    lr <- form(latent(real_fit), latent(gen_fit))
    function(x) lr(latent(x))
  }
}

#' Form of the truncated balls (kind_truncation()): Q is P restricted to a
#' ball about P's mean; the centre is the real fit rows' mean and the
#' squared radius its maximum-likelihood estimate, the largest squared
#' distance of Q's fit rows from it (the support's boundary). Up to a
#' constant (which no curve reads), log q / p is 0 inside and -Inf outside.
#' @noRd
form_ball <- function() {
  function(real_fit, gen_fit) {
    m <- colMeans(real_fit)
    r2 <- function(x) rowSums((x - rep(m, each = nrow(x)))^2)
    cut <- max(r2(gen_fit))
    function(x) ifelse(r2(x) <= cut, 0, -Inf)
  }
}
