# Scenarios of the validity suite (bench/validity.R) and of its fast subset
# (tests/testthat/test-validity.R): pairs of distributions with an exact or
# Monte Carlo true PR curve, grouped by their real distribution so that all
# models of a group can be estimated in one prd_curve() call on one real set
# (paired comparisons). Internal: not exported.

#' The scenarios of the validity suite at dimension d
#'
#' Four groups (the fourth at d <= 64), each with a real distribution (`real(n)`, an n x d sampler)
#' and its models (`sample(n)` and the true curve `truth`):
#'
#' * `gauss`, real N(0, I_d): `same` (Q = P); `shift_axis_{0.5,1,2}` (mean
#'   moved by s along e_1); `shift_random_{0.5,1,2}` (by s along a random
#'   unit vector); `var_0.8`, `var_1.2` (Q = N(0, s^2 I): deflation,
#'   inflation); `collapse` (20 distinct points drawn from P, each repeated:
#'   mode collapse); `outliers` (Q = 0.95 P + 0.05 N(0, 9 I)); `student_t`
#'   (multivariate t with 5 degrees of freedom scaled to covariance I).
#' * `mixture`, real = equal mixture of four N(mu 1_d / sqrt(d), I), mu =
#'   0, 4, 8, 12 (centres 4 apart whatever d): `drop_1` (the last mode
#'   dropped), `drop_2` (the last two).
#' * `aniso`, real N(0, Sigma), Sigma diagonal with variances proportional
#'   to 1/i (trace d): `aniso_1`, `aniso_2` (mean moved by Sigma^(1/2) u
#'   times 1 and 2, u a random unit vector: Mahalanobis distance 1 and 2).
#' * `tabular` (d <= validity_tabular_max_d only), real = a data frame of d
#'   N(0, 1) columns and two categorical ones: category drifts and
#'   categories that change a continuous column's law (validity_tabular(),
#'   R/validity-tabular.R).
#'
#' Truths: equal-covariance Gaussians (shifts, anisotropic) exact by
#' prd_truth_gaussian(); mixtures of collinear modes exact by quadrature
#' (truth_collinear()); the collapsed model is discrete and P continuous,
#' so the two are mutually singular and the true PR set is the origin
#' (prd_discrete() of disjoint weights); the radial cases (variance,
#' outliers, Student t) by prd_truth() on the squared norm r2 = |x|^2,
#' which the log-likelihood ratio depends on alone (its law under P and Q is
#' known in closed form: chi-square, scaled chi-square, ratio of
#' chi-squares), with `truth_n` draws.
#'
#' Every model also carries `log_ratio`, the exact log-likelihood ratio
#' log q - log p of a matrix of points (the oracle floor), and `form`, its
#' true parametric form to be fitted on the fit rows (the estimation floor,
#' R/validity-floor.R); class mixtures carry `classes`, the labeller of
#' their sampler (validity_draw()), and so does a group whose real set is
#' one (the group's `classes`).
#'
#' `kinds`: the groups of the kinds real embeddings show, built after
#' these four and only when asked for (validity_kinds, R/validity-kinds.R:
#' overlapping classes, heavy-tailed coordinates, a curved manifold,
#' truncation); their models also carry `log_ratio`, the exact
#' log-likelihood ratio log q - log p of a matrix of points (the oracle).
#' @return list of groups, each list(name, real, models = named list of
#'   list(sample, truth, truth_auc, label[, log_ratio])); attribute
#'   `seconds` (time spent on the truths).
#' @noRd
validity_scenarios <- function(d, seed = 1L, truth_n = 1e6, angles = 1001,
                               which = NULL, kinds = character()) {
  t0 <- proc.time()[["elapsed"]]
  check_kinds(kinds) # (before any truth is computed)
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv())
  on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
  set.seed(seed + 7919L * d)
  u <- stats::rnorm(d)
  u <- u / sqrt(sum(u^2))
  u_aniso <- stats::rnorm(d)
  u_aniso <- u_aniso / sqrt(sum(u_aniso^2))
  gauss <- function(n) matrix(stats::rnorm(n * d), n, d)
  e1 <- c(1, rep(0, d - 1L))
  zero <- rep(0, d)
  shifted <- function(v) {
    force(v)  # the loop variable changes before the sampler is called
    function(n) gauss(n) + rep(v, each = n)
  }
  nu <- 5
  t_scale <- sqrt((nu - 2) / nu)
  kept <- validity_models(which)
  add <- kept$add
  add("same", "Q = P", gauss, function() prd_truth_gaussian(zero, zero, angles = angles),
      log_ratio = function(x) rep(0, nrow(x)), form = form_iso_shared())
  # log N(mu, I) - log N(0, I)
  lr_shift <- function(v) {
    force(v)  # the loop variable changes before the function is called
    function(x) drop(x %*% v) - sum(v^2) / 2
  }
  for (s in c(0.5, 1, 2)) {
    add(paste0("shift_axis_", s), sprintf("mean + %s e_1", s),
        shifted(s * e1),
        local({s <- s; function() prd_truth_gaussian(zero, s * e1, angles = angles)}),
        log_ratio = lr_shift(s * e1), form = form_iso_shared())
  }
  for (s in c(0.5, 1, 2)) {
    add(paste0("shift_random_", s), sprintf("mean + %s u (random unit u)", s),
        shifted(s * u),
        local({s <- s; function() prd_truth_gaussian(zero, s * u, angles = angles)}),
        log_ratio = lr_shift(s * u), form = form_iso_shared())
  }
  # log N(0, s^2 I_d) density as a function of r2 = |x|^2
  log_gauss_r2 <- function(r2, s = 1) {
    -0.5 * d * log(2 * pi) - d * log(s) - r2 / (2 * s^2)
  }
  # the log ratio of a radial model, log q(|x|^2) - log p(|x|^2)
  lr_radial <- function(log_q) {
    force(log_q)
    function(x) {
      r2 <- rowSums(x^2)
      log_q(r2) - log_gauss_r2(r2)
    }
  }
  radial <- function(log_q, r2_q) {
    function() {
      prd_truth(function(z) log_gauss_r2(z[, 1]), function(z) log_q(z[, 1]),
                function(n) matrix(stats::rchisq(n, d)),
                function(n) matrix(r2_q(n)), n = truth_n, angles = angles)
    }
  }
  for (s in c(0.8, 1.2)) {
    add(paste0("var_", s), sprintf("N(0, %s^2 I)", s),
        local({s <- s; function(n) s * gauss(n)}),
        local({s <- s; radial(function(r2) log_gauss_r2(r2, s),
                              function(n) s^2 * stats::rchisq(n, d))}),
        log_ratio = local({s <- s; lr_radial(function(r2) log_gauss_r2(r2, s))}),
        form = form_iso())
  }
  centres20 <- gauss(20)
  add("collapse", "20 distinct points of P, repeated",
      function(n) centres20[rep_len(seq_len(20), n), , drop = FALSE],
      function() prd_discrete(c(1, 0), c(0, 1), angles = angles),
      log_ratio = function(x) ifelse(atom_keys(x) %in% atom_keys(centres20), Inf, -Inf),
      form = form_atoms())
  log_outliers <- function(r2) {
    log_sum_exp(cbind(log(0.95) + log_gauss_r2(r2), log(0.05) + log_gauss_r2(r2, 3)))
  }
  add("outliers", "0.95 P + 0.05 N(0, 9 I)",
      function(n) {
        x <- gauss(n)
        out <- stats::runif(n) < 0.05
        x[out, ] <- 3 * x[out, ]
        x
      },
      radial(log_outliers,
             function(n) ifelse(stats::runif(n) < 0.05, 9, 1) * stats::rchisq(n, d)),
      log_ratio = lr_radial(log_outliers), form = form_classes(),
      classes = function(n) {
        gauss(n)  # the sampler's draws before its classes
        1L + (stats::runif(n) < 0.05)
      })
  log_t <- function(r2) {
    lgamma((nu + d) / 2) - lgamma(nu / 2) - 0.5 * d * log(nu * pi) -
      d * log(t_scale) - (nu + d) / 2 * log1p(r2 / (nu * t_scale^2))
  }
  add("student_t", "multivariate t, 5 df, covariance I",
      function(n) gauss(n) * (t_scale / sqrt(stats::rchisq(n, nu) / nu)),
      radial(log_t, function(n) t_scale^2 * stats::rchisq(n, d) * nu / stats::rchisq(n, nu)),
      log_ratio = lr_radial(log_t), form = form_t(nu))
  g1 <- list(name = "gauss", real = gauss, models = kept$take())

  mu <- c(0, 4, 8, 12) / sqrt(d)
  centres <- outer(mu, rep(1, d))
  mix_p <- gaussian_mixture(centres, weights = c(1, 1, 1, 1))
  for (drop in 1:2) {
    w <- c(rep(1, 4 - drop), rep(0, drop))
    mix_q <- gaussian_mixture(centres, weights = w)
    add(paste0("drop_", drop), sprintf("mixture without %d of its 4 modes", drop),
        mix_q$sample,
        local({w <- w; function() truth_collinear(mu, d, 1, rep(0.25, 4),
                                                    w / sum(w), angles)}),
        log_ratio = local({q <- mix_q; function(x) q$log_density(x) - mix_p$log_density(x)}),
        form = form_classes(), classes = mixture_classes(mix_q))
  }
  g2 <- list(name = "mixture", real = mix_p$sample, models = kept$take(),
             classes = mixture_classes(mix_p))

  sd_aniso <- sqrt(d / sum(1 / seq_len(d)) / seq_len(d))
  aniso <- function(n) gauss(n) * rep(sd_aniso, each = n)
  for (s in 1:2) {
    add(paste0("aniso_", s),
        sprintf("N(%s Sigma^(1/2) u, Sigma), Sigma = diag(c / i)", s),
        local({s <- s; function(n) aniso(n) + rep(s * sd_aniso * u_aniso, each = n)}),
        local({s <- s; function() prd_truth_gaussian(zero, s * sd_aniso * u_aniso,
                                                       cov = diag(sd_aniso^2),
                                                       angles = angles)}),
        log_ratio = local({
          w <- s * u_aniso / sd_aniso  # Sigma^-1 mu; mu^T Sigma^-1 mu = s^2
          s2 <- s^2
          function(x) drop(x %*% w) - s2 / 2
        }), form = form_diag_shared())
  }
  g3 <- list(name = "aniso", real = aniso, models = kept$take())
  # mixed types (data frames with categorical columns): tables, d <= 64
  g4 <- if (d <= validity_tabular_max_d) {
    validity_tabular(d, truth_n = truth_n, angles = angles, which = which)
  }
  g5 <- lapply(kinds, validity_kind_group, d = d, seed = seed,
               truth_n = truth_n, angles = angles, which = which)
  out <- Filter(function(g) length(g$models) > 0L, c(list(g1, g2, g3, g4), g5))
  attr(out, "seconds") <- proc.time()[["elapsed"]] - t0
  out
}

#' The models of one group of the validity suite, kept as they are added:
#' `add(name, label, sample, truth, log_ratio = NULL, form = NULL, classes =
#' NULL)` calls `truth()` (a function returning the true curve) for a model
#' in `which` (every model when NULL) and keeps list(sample, truth, label,
#' truth_auc[, log_ratio, form, classes]) (R/validity-floor.R);
#' `take()` returns the models kept since the last take().
#' @noRd
validity_models <- function(which) {
  models <- list()
  add <- function(name, label, sample, truth, log_ratio = NULL, form = NULL,
                  classes = NULL) {
    if (is.null(which) || name %in% which) {
      tr <- truth()
      models[[name]] <<- list(sample = sample, truth = tr, label = label,
                              truth_auc = summary(tr)$auc)
      models[[name]]$log_ratio <<- log_ratio
      models[[name]]$form <<- form
      models[[name]]$classes <<- classes
    }
  }
  take <- function() {
    out <- models
    models <<- list()
    out
  }
  list(add = add, take = take)
}
