# EM for the mixture family (R/family-mixture-em.R, src/mixture.c) against
# EM written plainly from its definition (helper-mixture.R).

test_that("EM of one set equals the plain EM (spherical and diagonal)", {
  set.seed(11)
  X <- rbind(matrix(rnorm(40 * 3), 40), matrix(rnorm(30 * 3, 4, 0.5), 30),
             matrix(rnorm(20 * 3, c(-3, 0, 3), 2), 20, byrow = TRUE))
  fl <- 1e-3 * apply(X, 2, function(v) mean((v - mean(v))^2))
  C <- mixture_kmeanspp(X, 3)
  for (form in c("spherical", "diagonal")) {
    m <- mixture_em(X, C, form, fl, maxit = 12L, tol = 0)
    b <- brute_em(X, C, form == "spherical", fl, 12L)
    expect_equal(m$iterations, 12L)
    expect_equal(m$weights, b$weights, tolerance = 1e-8)
    expect_equal(m$means, b$means, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m$var, b$var, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m$loglik, b$loglik, tolerance = 1e-8)
    # the log-density of new rows, by the plain formula
    Z <- matrix(rnorm(15), 5)
    expect_equal(mixture_logdens(m, Z),
                 log(rowSums(exp(brute_comp_logdens(
                   Z, m$weights, m$means, m$var, form == "spherical")))),
                 tolerance = 1e-10)
  }
})

test_that("EM with tied means equals the plain EM", {
  set.seed(12)
  X <- rbind(matrix(rnorm(30 * 2), 30), matrix(rnorm(30 * 2, 5), 30))
  Y <- rbind(matrix(rnorm(10 * 2, 0, 1.5), 10), matrix(rnorm(40 * 2, 5), 40))
  fl <- lapply(list(X, Y), function(A) {
    1e-3 * apply(A, 2, function(v) mean((v - mean(v))^2))
  })
  C <- mixture_kmeanspp(rbind(X, Y), 2)
  m <- mixture_em_tied(X, Y, C, "spherical", fl, maxit = 10L, tol = 0)
  b <- brute_em_tied(X, Y, C, fl, 10L)
  for (j in 1:2) {
    expect_equal(m[[j]]$means, b$means, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m[[j]]$var, b$var[[j]], tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m[[j]]$weights, b$weights[[j]], tolerance = 1e-8,
                 ignore_attr = TRUE)
    expect_equal(m[[j]]$loglik, b$loglik, tolerance = 1e-8)
  }
  # the component Y hardly uses keeps a finite spread near X's
  expect_true(all(is.finite(m[[2]]$var)))
})

test_that("k-means++ seeds are rows of X, one per well-separated cluster", {
  set.seed(13)
  X <- three(300)
  C <- mixture_kmeanspp(X, 3)
  expect_true(all(apply(C, 1, function(c) any(colSums(t(X) == c) == 2))))
  cl <- apply(C, 1, function(c) which.min((c(-6, 0, 6) - c[1])^2 +
                                             (c(0, 5, 0) - c[2])^2))
  expect_setequal(cl, 1:3)
  # fewer distinct rows than K: those rows
  expect_equal(nrow(mixture_kmeanspp(X[rep(1:2, 10), ], 5)), 2L)
  # the squared norms given (formed once for several fits): the same seeds,
  # and the pooled sets' norms are the two sets' norms one after the other
  Y <- three(200) + 1
  set.seed(14)
  a <- mixture_kmeanspp(rbind(X, Y), 6)
  set.seed(14)
  b <- mixture_kmeanspp(rbind(X, Y), 6, c(rowSums(X^2), rowSums(Y^2)))
  expect_identical(a, b)
  # the two sets as a list, seeded as their stack without that copy: the
  # same seeds (dimnames aside), with and without their norms given
  set.seed(14)
  l <- mixture_kmeanspp(list(X, Y), 6)
  expect_identical(unname(l), unname(a))
  set.seed(14)
  expect_identical(mixture_kmeanspp(list(X, Y), 6,
                                    list(rowSums(X^2), rowSums(Y^2))), l)
  # and the log-density of a list is that of the stacked rows
  m <- mixture_em(X, mixture_kmeanspp(X, 3), "spherical", rep(1e-3, 2))
  expect_identical(mixture_logdens(m, list(X, Y)), mixture_logdens(m, rbind(X, Y)))
})

test_that("the rows' squared norms and the map are R's doubles, without copies", {
  set.seed(15)
  X <- matrix(rnorm(700 * 9), 700) * 10^runif(9, -3, 3)
  X[3, 2] <- -0
  X[5, ] <- 0
  # 700 rows: three blocks of 256, the last one short
  expect_identical(row_sq_norms(X), rowSums(X^2))
  expect_identical(row_sq_norms(X[1:3, , drop = FALSE]), rowSums(X[1:3, ]^2))
  tr <- list(centre = rnorm(9), scale = 3.7)
  rows <- c(700L, 2L, 2L, 5L)
  expect_identical(mixture_rows(X, rows, tr),
                   X[rows, ] / tr$scale - rep(tr$centre / tr$scale, each = 4))
  expect_identical(mixture_rows(X, NULL, tr),
                   X / tr$scale - rep(tr$centre / tr$scale, each = 700))
  # integer rows are doubles first
  Xi <- matrix(1:12, 4)
  t3 <- list(centre = tr$centre[1:3], scale = tr$scale)
  expect_identical(mixture_rows(Xi, 2:3, t3),
                   Xi[2:3, ] / t3$scale - rep(t3$centre / t3$scale, each = 2))
})

test_that("squared distances in blocks equal the direct ones", {
  set.seed(14)
  # 600 rows: three blocks of src/mixture.c, the last one short
  X <- matrix(rnorm(600 * 4), 600)
  C <- matrix(rnorm(3 * 4), 3)
  expect_equal(mixture_dist2(X, C), sq_dist(X, C), tolerance = 1e-12)
  expect_equal(mixture_dist2(X[1:50, ], C), sq_dist(X[1:50, ], C),
               tolerance = 1e-12)
})

test_that("the E-step's sums over blocks equal the plain posterior's", {
  set.seed(15)
  X <- matrix(rnorm(700 * 5), 700) + rep(c(0, 3), each = 350)
  C <- X[c(1, 400, 600), ]
  w <- c(0.5, 0.3, 0.2)
  for (form in c("spherical", "diagonal")) {
    V <- if (form == "spherical") c(1, 2, 0.5) else
      matrix(runif(15, 0.5, 2), 3)
    m <- list(form = form, weights = w, means = C, var = V)
    st <- mixture_estep(m, X)
    L <- brute_comp_logdens(X, w, C, V, form == "spherical")
    R <- brute_posterior(L)
    expect_equal(st$lse, log(rowSums(exp(L))), tolerance = 1e-10)
    expect_equal(st$N, colSums(R), tolerance = 1e-10)
    expect_equal(st$S1, crossprod(R, X), tolerance = 1e-10,
                 ignore_attr = TRUE)
    expect_equal(st$S2, if (form == "spherical") drop(crossprod(R, rowSums(X^2)))
                 else crossprod(R, X^2), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(mixture_logdens(m, X), st$lse)
    # the hard assignment's sums: counts and sums of the nearest rows
    H <- brute_hard(X, C)
    sh <- mixture_hard(X, C, form)
    expect_equal(sh$N, colSums(H))
    expect_equal(sh$S1, crossprod(H, X), tolerance = 1e-12, ignore_attr = TRUE)
  }
})

test_that("the E-step's sums do not depend on the number of threads", {
  set.seed(18)
  old <- prd_threads(1)
  on.exit(prd_threads(old), add = TRUE)
  # 3,000 rows: 12 blocks in 8 chunks of their own sums
  X <- matrix(rnorm(3000 * 6), 3000)
  for (form in c("spherical", "diagonal")) {
    m <- list(form = form, weights = c(0.3, 0.7), means = X[1:2, ],
              var = if (form == "spherical") c(1, 2) else matrix(1.5, 2, 6))
    prd_threads(1)
    one <- mixture_estep(m, X)
    prd_threads(2)
    two <- mixture_estep(m, X)
    expect_identical(one, two)
    expect_equal(two$N, colSums(brute_posterior(brute_comp_logdens(
      X, m$weights, m$means, m$var, form == "spherical"))), tolerance = 1e-10)
  }
})
