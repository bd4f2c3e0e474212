# The validity suite's mixed-type scenarios (R/validity.R, bench/validity.R):
# data frames of continuous and categorical columns, as synthetic tabular
# data, with exact or Monte Carlo true curves. Internal: not exported.

#' Largest dimension at which the suite runs the tabular group: tables of
#' tens of columns, not embeddings of thousands
#' @noRd
validity_tabular_max_d <- 64L

#' The tabular group of the validity suite at dimension d
#'
#' Real: a data frame of d continuous columns `x1`..`xd`, independent
#' N(0, 1), and two categorical columns independent of them and of each
#' other, `sex` (F, M: 0.5, 0.5) and `region` (a to e: 0.4, 0.3, 0.1, 0.1,
#' 0.1). Models:
#'
#' * `category_drift`: sex 0.7 / 0.3 and region uniform, the continuous
#'   columns as in P (the example of the categorical columns' issue; true
#'   AUC 0.793);
#' * `category_drift_sex`: sex 0.6 / 0.4 alone;
#' * `category_dropped`: region e never produced (its 0.1 given to d);
#' * `category_mean`: x1 ~ N(1, 1) where sex = M (categories as in P);
#' * `category_scale`: x1 ~ N(0, 2^2) where region = a.
#'
#' Truths: with identical continuous columns independent of the
#' categories, the likelihood ratio is that of the categories' joint law,
#' and the true curve is prd_discrete() of the 10 cells' weights (exact);
#' where the categories change the law of x1, the ratio depends on x1 and
#' the indicator of the category alone, and prd_truth() draws those two
#' (`truth_n` draws; category_mean is also 0.5 min(lambda, 1) plus half the
#' Gaussian shift curve of delta = 1, which the tests check). Each model's
#' `log_ratio` is exact (the cells' probability ratio times that of x1's
#' conditional normal) and its `form` (form_tabular()) the cells'
#' frequencies and, where the model changes x1, x1's conditional Gaussian.
#' @return list(name = "tabular", real, models), as validity_scenarios()'s
#'   groups
#' @noRd
validity_tabular <- function(d, truth_n = 1e6, angles = 1001, which = NULL) {
  p_sex <- c(0.5, 0.5)
  p_region <- c(0.4, 0.3, 0.1, 0.1, 0.1)
  frame <- function(n, q_sex = p_sex, q_region = p_region, x1 = NULL) {
    sex <- factor(sample(c("F", "M"), n, TRUE, q_sex), levels = c("F", "M"))
    region <- factor(sample(letters[1:5], n, TRUE, q_region),
                     levels = letters[1:5])
    x <- matrix(stats::rnorm(n * d), n, d)
    colnames(x) <- paste0("x", seq_len(d))
    if (!is.null(x1)) x[, 1] <- x1(x[, 1], sex, region)
    data.frame(x, sex = sex, region = region)
  }
  cells <- function(s, r) as.vector(outer(s, r))
  kept <- validity_models(which)
  add <- kept$add
  drifts <- list(
    category_drift = list("sex 0.7 / 0.3, region uniform", c(0.7, 0.3), rep(0.2, 5)),
    category_drift_sex = list("sex 0.6 / 0.4", c(0.6, 0.4), p_region),
    category_dropped = list("region e never produced", p_sex,
                            c(0.4, 0.3, 0.1, 0.2, 0)))
  for (nm in names(drifts)) {
    local({
      dr <- drifts[[nm]]
      add(nm, dr[[1]], function(n) frame(n, dr[[2]], dr[[3]]),
          function() prd_discrete(cells(p_sex, p_region),
                                  cells(dr[[2]], dr[[3]]), angles = angles),
          log_ratio = function(x) {
            # the cells' probabilities: sex varies fastest (cells())
            cell <- as.integer(x$sex) + 2L * (as.integer(x$region) - 1L)
            log(cells(dr[[2]], dr[[3]])[cell]) - log(cells(p_sex, p_region)[cell])
          }, form = form_tabular())
    })
  }
  # the categories change the law of x1: the truth from (indicator, x1)
  two <- function(prob, x1) {
    function(n) {
      z <- stats::rbinom(n, 1, prob)
      cbind(z, x1(n, z))
    }
  }
  add("category_mean", "x1 ~ N(1, 1) where sex = M",
      function(n) frame(n, x1 = function(x, sex, region) x + (sex == "M")),
      function() {
        prd_truth(function(z) stats::dnorm(z[, 2], log = TRUE),
                  function(z) stats::dnorm(z[, 2], z[, 1], log = TRUE),
                  two(0.5, function(n, z) stats::rnorm(n)),
                  two(0.5, function(n, z) stats::rnorm(n, z)),
                  n = truth_n, angles = angles)
      },
      log_ratio = function(x) {
        m <- as.numeric(x$sex == "M")
        stats::dnorm(x$x1, m, log = TRUE) - stats::dnorm(x$x1, log = TRUE)
      }, form = form_tabular("sex"))
  add("category_scale", "x1 ~ N(0, 2^2) where region = a",
      function(n) frame(n, x1 = function(x, sex, region) x * (1 + (region == "a"))),
      function() {
        prd_truth(function(z) stats::dnorm(z[, 2], log = TRUE),
                  function(z) stats::dnorm(z[, 2], sd = 1 + z[, 1], log = TRUE),
                  two(0.4, function(n, z) stats::rnorm(n)),
                  two(0.4, function(n, z) stats::rnorm(n, sd = 1 + z)),
                  n = truth_n, angles = angles)
      },
      log_ratio = function(x) {
        s <- 1 + (x$region == "a")
        stats::dnorm(x$x1, sd = s, log = TRUE) - stats::dnorm(x$x1, log = TRUE)
      }, form = form_tabular("region"))
  list(name = "tabular", real = function(n) frame(n), models = kept$take())
}
