# The interaction family (R/family-interaction.R): a screened logistic
# regression on a quadratic basis whose coefficients vary by category.

interaction_sets <- function(n, seed, scale_a = 2) {
  set.seed(seed)
  real <- data.frame(x1 = rnorm(n), x2 = rnorm(n),
                     g = factor(sample(c("a", "b", "c"), n, TRUE)))
  gen <- data.frame(x1 = rnorm(n), x2 = rnorm(n),
                    g = factor(sample(c("a", "b", "c"), n, TRUE)))
  # x1 ~ N(0, scale_a^2) where g = a: the log ratio is a function of the
  # indicator of a times x1^2
  gen$x1 <- gen$x1 * ifelse(gen$g == "a", scale_a, 1)
  sets <- prepare_samples(real, gen)
  list(real = real, gen = gen, X = sets$real, Y = sets$generated[[1]])
}

test_that("interaction_terms() lists mains, categories, varying terms and pairs", {
  s <- interaction_sets(60, 1)
  rows <- list(1:60, 1:60)
  spec <- interaction_terms(s$X, s$Y, rows)
  # columns: x1, x2, g=a, g=b, g=c; 2 continuous, 3 binary
  expect_identical(colnames(s$X), c("x1", "x2", "g=a", "g=b", "g=c"))
  # 2 x 2 mains + 3 categories + 3 x 2 x 2 varying; no pairs (the
  # indicators of one column are never 1 together)
  expect_identical(nrow(spec$terms), 4L + 3L + 12L)
  expect_identical(as.vector(table(spec$groups$kind)[c("main", "category", "varying")]),
                   c(2L, 3L, 6L))
  expect_false("pair" %in% spec$groups$kind)
  # the continuous columns centred and scaled by the pooled rows
  pooled <- c(s$X[, 1], s$Y[, 1])
  expect_equal(spec$centre[1], mean(pooled), tolerance = 1e-14)
  expect_equal(spec$scale[1], sd(pooled), tolerance = 1e-14)
  expect_identical(spec$centre[3:5], c(0, 0, 0))
  # a varying term: (x1 - centre) / scale squared, times g = a
  B <- interaction_design(s$X, spec, 1:60)
  k <- which(spec$terms$a == 1 & spec$terms$b %in% 3 & spec$terms$sq)
  expect_equal(B[, k], ((s$X[, 1] - spec$centre[1]) / spec$scale[1])^2 * s$X[, 3],
               tolerance = 1e-14)
  # its group's parents: the category g = a and the main group of x1
  g <- spec$terms$group[k]
  expect_setequal(spec$groups$kind[spec$groups$parents[[g]]], c("category", "main"))
  # two categorical columns: the pairs of categories of different columns
  X2 <- cbind(s$X, h1 = rep(c(0.5, 0), 30), h2 = rep(c(0, 0.5), 30))
  spec2 <- interaction_terms(X2, X2, rows)
  expect_identical(sum(spec2$groups$kind == "pair"), 6L)
})

test_that("interaction_z() is Welch's t statistic", {
  set.seed(2)
  a <- rnorm(40, 1, 2)
  b <- rnorm(55, 0.2, 1)
  z <- interaction_z(c(55, 40), list(sum(b), sum(a)), list(sum(b^2), sum(a^2)))
  expect_equal(z, unname(t.test(a, b)$statistic), tolerance = 1e-12)
  expect_identical(interaction_z(c(3, 3), list(3, 3), list(3, 3)), 0)
})

test_that("the interaction family screens, then equals glm() on the selected terms, fold by fold", {
  s <- interaction_sets(400, 3)
  X <- s$X
  Y <- s$Y
  # the cells: fit rows, then two folds of the evaluation rows
  cells <- list(list(1:100, seq(101, 400, 2), seq(102, 400, 2)),
                list(1:120, seq(121, 400, 2), seq(122, 400, 2)))
  # without the ridge penalty: maximum likelihood, as glm()
  got <- interaction_scores(X, Y, cells, ridge = 0)
  spec <- interaction_terms(X, Y, list(1:400, 1:400))
  want <- list(numeric(), numeric())
  for (v in 1:2) {
    fx <- sort(unlist(cells[[1]][-(v + 1)]))
    fy <- sort(unlist(cells[[2]][-(v + 1)]))
    Bx <- interaction_design(X, spec, fx)
    By <- interaction_design(Y, spec, fy)
    # the screening by brute force: t.test() of every term
    z <- vapply(seq_len(ncol(Bx)), function(t) {
      if (sd(c(Bx[, t], By[, t])) == 0) 0 else unname(t.test(By[, t], Bx[, t])$statistic)
    }, 0)
    bound <- qnorm(1 - 0.05 / (2 * nrow(spec$terms)))
    hit <- unique(spec$terms$group[abs(z) > bound])
    groups <- unique(c(hit, unlist(spec$groups$parents[hit])))
    keep <- which(spec$terms$group %in% groups)
    expect_identical(interaction_screen(spec, c(length(fx), length(fy)),
                                        list(colSums(Bx), colSums(By)),
                                        list(colSums(Bx^2), colSums(By^2))),
                     keep)
    # the scenario's terms: x1^2 within g = a, with its parents
    expect_true(any(spec$terms$sq[keep] & spec$terms$a[keep] == 1 &
                      spec$terms$b[keep] %in% 3))
    df <- as.data.frame(rbind(Bx[, keep], By[, keep]))
    names(df) <- paste0("V", seq_along(keep))
    df$t <- rep(c(0, 1), c(length(fx), length(fy)))
    fit <- glm(t ~ ., data = df, family = binomial(),
               control = glm.control(epsilon = 1e-8, maxit = 200))
    ev <- list(cells[[1]][[v + 1]], cells[[2]][[v + 1]])
    for (j in 1:2) {
      Z <- if (j == 1) X else Y
      nd <- as.data.frame(interaction_design(Z, spec, ev[[j]])[, keep, drop = FALSE])
      names(nd) <- names(df)[seq_along(keep)]
      want[[j]] <- c(want[[j]], unname(predict(fit, nd)))
    }
  }
  expect_equal(got$real, want[[1]], tolerance = 1e-7)
  expect_equal(got$gen, want[[2]], tolerance = 1e-7)
  expect_identical(got$settings$converged, 1)
  expect_identical(got$settings$candidates, 19L)
})

test_that("on categories alone the interaction family is the log ratio of each category's counts", {
  # one categorical column whose three categories all differ: the
  # saturated model, whose fitted log odds of a category are log(m_l / n_l)
  # of its counts in the fit rows
  set.seed(4)
  n <- 600
  real <- data.frame(g = sample(c("a", "b", "c"), n, TRUE, c(0.6, 0.3, 0.1)))
  gen <- data.frame(g = sample(c("a", "b", "c"), n, TRUE, c(0.1, 0.45, 0.45)))
  sets <- quiet_traps(prepare_samples(real, gen))
  X <- sets$real
  Y <- sets$generated[[1]]
  cells <- list(list(1:200, 201:600), list(1:200, 201:600))
  got <- interaction_scores(X, Y, cells, ridge = 0)
  lr <- log(as.vector(table(gen$g[1:200])) / as.vector(table(real$g[1:200])))
  expect_equal(got$real, lr[match(real$g[201:600], c("a", "b", "c"))], tolerance = 1e-6)
  expect_equal(got$gen, lr[match(gen$g[201:600], c("a", "b", "c"))], tolerance = 1e-6)
})

test_that("the interaction family reads a category that changes a column's spread, closer than logit and quadratic", {
  # the validity suite's category_scale at d = 4: x1 ~ N(0, 2^2) where
  # region = a (truth by Monte Carlo, 0.886)
  g <- validity_tabular(4, truth_n = 2e5, which = "category_scale")
  truth <- summary(g$models$category_scale$truth)$auc
  expect_equal(truth, 0.886, tolerance = 0.01)
  set.seed(46)
  real <- g$real(3000)
  gen <- g$models$category_scale$sample(3000)
  cv <- quiet_traps(prd_curve(real, gen, method = c("interaction", "logit", "quadratic"),
                              angles = 201))
  auc <- setNames(summary(cv)$auc, summary(cv)$method)
  # measured: 0.859 against logit 0.983 and quadratic 0.913 (x1's
  # variances differ in the pooled sets; at d = 64 it reads 0.99)
  expect_lt(abs(auc[["interaction"]] - truth), 0.035)
  expect_gt(auc[["logit"]] - truth, 0.05)
  expect_gt(auc[["quadratic"]] - truth, 0.02)
})

test_that("the interaction family is in the default only with categorical columns", {
  set.seed(5)
  num <- matrix(rnorm(40), 20)
  expect_identical(tightest_families(quiet_traps(prepare_samples(num, num))$real),
                   c(tightest_default(), "spectral"))
  df <- data.frame(x = rnorm(20), g = rep(c("a", "b"), 10))
  fams <- tightest_families(quiet_traps(prepare_samples(df, df))$real)
  expect_identical(fams, c(tightest_default(), "logit", "interaction"))
  expect_false("interaction" %in% tightest_default())
})

test_that("the penalised fit is the optimum of its objective, and keeps separated sets finite", {
  set.seed(6)
  n <- 300
  B <- cbind(1, rnorm(n), rexp(n), rbinom(n, 1, 0.3) / 2)
  y <- rbinom(n, 1, plogis(-0.3 + 0.8 * B[, 2] - 0.5 * B[, 3] + B[, 4]))
  ridge <- 0.01
  v <- c(0, apply(B[, -1], 2, function(x) mean(x^2) - mean(x)^2))
  objective <- function(b) {
    eta <- drop(B %*% b)
    -sum(y * eta - log1p(exp(eta))) + ridge * n / 2 * sum(v * b^2)
  }
  gradient <- function(b) {
    mu <- plogis(drop(B %*% b))
    -drop(crossprod(B, y - mu)) + ridge * n * v * b
  }
  brute <- optim(numeric(4), objective, gradient, method = "BFGS",
                 control = list(reltol = 1e-14, maxit = 1000))
  f <- interaction_fit(B, y, ridge = ridge)
  expect_true(f$converged)
  expect_equal(f$beta, brute$par, tolerance = 1e-6)
  # the gradient of the objective is 0 there
  expect_lt(max(abs(gradient(f$beta))), 1e-6)
  # ridge 0: glm()
  g <- glm.fit(B, y, family = binomial())
  expect_equal(interaction_fit(B, y, ridge = 0)$beta, unname(g$coefficients),
               tolerance = 1e-7)
  # separated sets: finite coefficients within the iterations, the rows
  # still ranked
  x <- c(rnorm(50, -3), rnorm(50, 3))
  ys <- rep(0:1, each = 50)
  fs <- interaction_fit(cbind(1, x), ys)
  expect_true(all(is.finite(fs$beta)))
  expect_lte(fs$iterations, interaction_maxit)
  expect_gt(fs$beta[2], 0)
})

test_that("the cell sums keep an empty cell (no split: no fit rows of their own)", {
  set.seed(48)
  x <- cbind(rnorm(12), rbinom(12, 1, 0.5))
  spec <- interaction_terms(x, x, list(1:12, 1:12))
  cells <- list(integer(), 1:5, 6:12)
  got <- interaction_cell_sums(x, spec, cells, block = 2L)
  B <- interaction_design(x, spec, 1:12)
  expect_equal(got$s1[1, ], rep(0, nrow(spec$terms)))
  expect_equal(got$s1[2, ], colSums(B[1:5, , drop = FALSE]), tolerance = 1e-12)
  expect_equal(got$s2[3, ], colSums(B[6:12, , drop = FALSE]^2), tolerance = 1e-12)
  # the fuzz case that found it: a curve, not a base R error
  df <- data.frame(a = rnorm(6), b = rnorm(6), f = factor(rep(c("u", "v"), 3)))
  cv <- suppressWarnings(prd_curve(df, df[6:1, ], method = "interaction",
                                   split = 0, angles = 11))
  expect_true(all(cv$precision >= 0 & cv$precision <= 1))
})

test_that("without terms (every column constant) the interaction family reads the sets as one", {
  one <- data.frame(k = factor(rep("A", 1500)), x = rep(1, 1500))
  spec <- interaction_terms(matrix(1, 4, 2), matrix(1, 4, 2), list(1:4, 1:4))
  expect_identical(nrow(spec$terms), 0L)
  got <- interaction_cell_sums(matrix(1, 4, 2), spec, list(1:2, 3:4))
  expect_identical(dim(got$s1), c(2L, 0L))
  for (m in c("interaction", "tightest")) {
    cv <- withCallingHandlers(
      suppressMessages(quiet_traps(prd_curve(one, one[1:500, ], method = m))),
      prdcurve_warning_collapsed = function(w) invokeRestart("muffleWarning"))
    expect_identical(summary(cv)$auc, 1)
  }
})
