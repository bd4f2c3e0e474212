# Tests of R/family-stacked.R.

test_that("the ridge logistic regression equals glm() without the ridge", {
  set.seed(12)
  n <- 300
  x <- cbind(rnorm(n), runif(n))
  y <- as.numeric(runif(n) < plogis(0.5 + x[, 1] - 2 * x[, 2]))
  w <- ifelse(y == 1, 0.5 / sum(y), 0.5 / sum(1 - y))
  B <- cbind(1, x)
  ref <- suppressWarnings(stats::glm.fit(B, y, weights = w,
                                         family = stats::quasibinomial()))
  expect_equal(logistic_ridge(B, y, w, ridge = 0), unname(ref$coefficients),
               tolerance = 1e-7)
  # separable sets: finite coefficients that still order the rows
  ys <- as.numeric(x[, 1] > 0)
  ws <- ifelse(ys == 1, 0.5 / sum(ys), 0.5 / sum(1 - ys))
  b <- logistic_ridge(B, ys, ws)
  expect_true(all(is.finite(b)))
  eta <- drop(B %*% b)
  expect_gt(min(eta[ys == 1]), max(eta[ys == 0]))
})

test_that("stacked equals its definition written out with solve() and glm()", {
  s <- two_sets(60, 3, seed = 14)
  sp <- list(real = 1:20, generated = 41:60)
  fx <- setdiff(1:60, sp$real)
  fy <- setdiff(1:60, sp$generated)
  xf <- s$x[fx, ]
  yf <- s$y[fy, ]
  z <- rbind(s$x[sp$real, ], s$y[sp$generated, ])
  # the two inner folds: random halves of each set's fit rows (R's RNG)
  set.seed(3)
  ix <- random_halves(40)
  iy <- random_halves(40)
  scores <- 0
  for (v in 1:2) {
    hx <- ix[[v]]
    hy <- iy[[v]]
    a <- xf[hx, ]
    b <- yf[hy, ]
    feat <- function(u) {
      cbind(brute_linear_scores(a, b, u),
            log(rowSums(sweep(u, 2, colMeans(a))^2)),
            log(rowSums(sweep(u, 2, colMeans(b))^2)))
    }
    tr <- rbind(feat(xf[-hx, ]), feat(yf[-hy, ]))
    lab <- rep(0:1, each = 20)
    basis <- function(f) {
      do.call(cbind, c(list(1), lapply(1:3, function(j) {
        g <- pmin(pmax(f[, j], min(tr[, j])), max(tr[, j]))
        splines::ns(g, knots = stats::quantile(tr[, j], c(0.25, 0.5, 0.75),
                                               names = FALSE),
                    Boundary.knots = range(tr[, j]))
      })))
    }
    beta <- logistic_ridge(basis(tr), lab, rep(1 / 40, 40))
    scores <- scores + drop(basis(feat(z)) %*% beta) / 2
  }
  set.seed(3)
  f <- fit_stacked(xf, yf)
  expect_equal(f$score(z), scores, tolerance = 1e-8)
  set.seed(3)
  cv <- prd_curve(s$x, s$y, method = "stacked", split = sp, angles = 25,
                  folds = 1)
  expect_curve_equal(cv, brute_score_curve(scores[1:20], scores[-(1:20)],
                                           lambda_grid(25)))
  expect_error(suppressWarnings(
    prd_curve(s$x[1:6, ], s$y[1:6, ], method = "stacked")),
    class = "prdcurve_error_split")
})

test_that("stacked sees heavy tails that the quadratic discriminant cannot", {
  skip_on_cran()
  # N(0, I) against a Student t with 5 degrees of freedom and covariance I
  # at d = 16: log q/p is not monotone in |z|^2, and the covariances agree
  sc <- validity_scenarios(16, which = "student_t", truth_n = 2e5,
                           angles = 201)
  g <- sc[[1]]
  m <- g$models$student_t
  set.seed(6)
  x <- g$real(2000)
  y <- m$sample(2000)
  s <- summary(prd_curve(x, y, method = c("quadratic", "stacked"),
                         angles = 201))
  err <- s$auc - m$truth_auc
  names(err) <- s$method
  expect_gt(err[["quadratic"]], 0.2)
  expect_lt(abs(err[["stacked"]]), 0.05)
})
