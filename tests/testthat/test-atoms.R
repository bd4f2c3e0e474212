# atoms = "exact" / "ignore" (R/atoms.R): columns on a grid in one set only

# Integer-valued real data (rounded correlated Gaussians, as pixel
# intensities) against three models: the other half of the data plus
# Gaussian noise of 0.1, 0.2 and 0.4 column sd (continuous output)
atoms_models <- function(n = 800, d = 6, seed = 2) {
  set.seed(seed)
  mk <- function(n) {
    z <- matrix(rnorm(n * d), n) %*% chol(0.1 * diag(d) + 0.9)
    round(z * 10 + 50)
  }
  real <- mk(n)
  other <- mk(n)
  s <- apply(other, 2, stats::sd)
  models <- lapply(c(a = 0.1, b = 0.2, c = 0.4), function(f) {
    other + sweep(matrix(rnorm(n * d), n), 2, f * s, `*`)
  })
  list(real = real, models = models)
}

test_that("the cells of the grid: edges half-way between grid values", {
  E <- cbind(c(1, 2, 2.4, 3.7, Inf), c(0.2, 0.4, 0.6, 0.8, 1))
  # column 1 on the grid of whole numbers (e = 0); column 2 left alone
  atoms <- list(cols = 1L, e = 0L, shift = 10, off = 0, mult = 0, centre = 0,
                bound = 11)
  out <- prdcurve:::marginal_cell_edges(E, atoms)
  expect_identical(out[, 1], c(1.5, 2.5, 3.5, Inf, Inf))
  expect_identical(out[, 2], E[, 2])
  # a grid of halves (e = -1) under the scaling of standardize = "real":
  # z = (x - centre) mult - off
  atoms <- list(cols = 2L, e = -1L, shift = 10, off = 0.25, mult = 2,
                centre = 3, bound = 11)
  x <- c(3.1, 3.3, 3.6, 4.2, 4.26)
  E[, 2] <- (x - 3) * 2 - 0.25
  out <- prdcurve:::marginal_cell_edges(E, atoms)
  h <- c(3.25, 3.75, 4.25) # (floor(x / 0.5) + 1/2) 0.5, each once
  expect_equal(out[, 2], c((h - 3) * 2 - 0.25, Inf, Inf))
})

test_that("atoms = 'ignore' keeps the noisy models' order; the exact reading's warning names it", {
  # (2,000 rows: at 800 the noise of 0.1 and 0.2 sd are within the curves'
  # noise of each other, 0.945-0.981 against 0.945-0.970 over six seeds)
  big <- atoms_models(n = 2000)
  set.seed(5)
  ign <- expect_no_warning(suppressWarnings(
    prd_curve(big$real, big$models, atoms = "ignore"),
    classes = "prdcurve_warning_family_disagreement"))
  auc <- summary(ign)$auc
  names(auc) <- summary(ign)$model
  # the noise read in order: 0.1 sd above 0.2 sd above 0.4 sd
  expect_true(auc[["a"]] > auc[["b"]] + 0.01)
  expect_true(auc[["b"]] > auc[["c"]] + 0.2)
  expect_true(auc[["a"]] > 0.9)
  # no atom bins
  info <- prd_curve_info(ign)
  expect_identical(vapply(info$details, `[[`, "", "atoms"), rep("ignore", 3))

  # the exact reading: every model at 0, a grid warning that names the
  # reading with the atoms ignored (kept with each curve)
  dat <- atoms_models()
  set.seed(5)
  w <- NULL
  cv <- withCallingHandlers(
    prd_curve(dat$real, dat$models, replicates = 4),
    prdcurve_warning_grid_columns = function(c) {
      w <<- conditionMessage(c)
      invokeRestart("muffleWarning")
    })
  expect_true(all(summary(cv)$auc <= 0.005))
  info <- prd_curve_info(cv)
  kept <- lapply(info$details, `[[`, "atoms_ignored")
  ka <- vapply(kept, function(g) summary(g)$auc, numeric(1))
  # (at 800 rows the noise of 0.1 and 0.2 sd are within the curves' noise
  # of each other, see above: the order of those two is checked at 2,000)
  expect_true(min(ka[1:2]) > ka[3] + 0.2)
  w <- gsub("\\s+", " ", cli::ansi_strip(w))
  expect_match(w, "ties 3 models at AUC 0", fixed = TRUE)
  expect_match(w, paste0("they read AUC a ", format(round(ka[1], 3), nsmall = 3),
                         ", b ", format(round(ka[2], 3), nsmall = 3),
                         ", c ", format(round(ka[3], 3), nsmall = 3)),
               fixed = TRUE)
  # the kept readings have their replicates
  expect_length(unique(prd_curve_info(kept[[1]])$replicates[[1]]$replicate), 4)
  # and are those of atoms = "ignore" under the same seed (read again from
  # the RNG's state of the exact reading)
  set.seed(5)
  again <- suppressWarnings(prd_curve(dat$real, dat$models, replicates = 4,
                                      atoms = "ignore"))
  expect_identical(unname(ka), summary(again)$auc)

  # prd_compare(): the exact comparison cannot rank them (a warning), the
  # reading with the atoms ignored does
  expect_warning(ex <- prd_compare(cv), class = "prdcurve_warning_atoms_tie")
  expect_equal(ex$estimate[ex$statistic == "auc"], c(0, 0))
  cmp <- prd_compare(cv, atoms = "ignore")
  d <- cmp[cmp$statistic == "auc", ]
  expect_equal(d$estimate, c(ka[2] - ka[1], ka[3] - ka[1]))
  expect_true(d$upper[2] < 0) # c below a, interval away from 0
  expect_true(all(d$lower <= d$estimate & d$estimate <= d$upper))
})

test_that("atoms = 'ignore' changes nothing where no column is on a grid in one set only", {
  set.seed(3)
  real <- matrix(rnorm(300 * 3), ncol = 3)
  gen <- matrix(rnorm(300 * 3, 0.4), ncol = 3)
  both_int <- list(real = round(real * 100), gen = round(gen * 100))
  for (s in list(list(real, gen), both_int)) {
    set.seed(9)
    a <- prd_curve(s[[1]], s[[2]], method = c("tightest", "marginal"))
    set.seed(9)
    b <- prd_curve(s[[1]], s[[2]], method = c("tightest", "marginal"),
                   atoms = "ignore")
    expect_identical(a$precision, b$precision)
    expect_identical(a$recall, b$recall)
  }
  # the neighbour families never read atoms: knn alike under both readings
  dat <- atoms_models(n = 200, d = 3)
  set.seed(4)
  a <- suppressWarnings(prd_curve(dat$real, dat$models$a, method = "knn"))
  set.seed(4)
  b <- prd_curve(dat$real, dat$models$a, method = "knn", atoms = "ignore")
  expect_identical(a$precision, b$precision)
})

test_that("one model at 0: no tie, no second reading; bad atoms are input errors", {
  dat <- atoms_models(n = 300)
  # a rounded model lies on the grid: only model a has atoms
  models <- list(a = dat$models$a, b = round(dat$models$b))
  set.seed(1)
  expect_warning(cv <- prd_curve(dat$real, models, method = "marginal",
                                 replicates = 4),
                 class = "prdcurve_warning_grid_columns")
  info <- prd_curve_info(cv)
  expect_true(summary(cv)$auc[1] <= 0.005)
  expect_null(info$details[[1]]$atoms_ignored)
  expect_identical(vapply(info$details, `[[`, NA, "grid_columns"), c(TRUE, FALSE))
  expect_no_warning(cmp <- prd_compare(cv))
  expect_error(prd_compare(cv, atoms = "ignore"),
               class = "prdcurve_error_input")
  expect_error(prd_curve(dat$real, models, atoms = "round"),
               class = "prdcurve_error_input")
  expect_error(prd_compare(cv, atoms = NA), class = "prdcurve_error_input")
})

test_that("without the input checks the tie is still read again, without a warning", {
  dat <- atoms_models(n = 300)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(2)
  cv <- expect_no_warning(prd_curve(dat$real, dat$models[c("a", "c")],
                                    method = "marginal"))
  expect_true(all(summary(cv)$auc <= 0.005))
  kept <- lapply(prd_curve_info(cv)$details, `[[`, "atoms_ignored")
  ka <- vapply(kept, function(g) summary(g)$auc, numeric(1))
  # (read again, not 0: at 300 rows the two models' order is noise)
  expect_true(all(ka > 0.5))
  # the reading kept is the marginal curve with the atoms ignored: no atom bins
  expect_identical(prd_curve_info(kept[[1]])$details[[1]]$atom_columns, 0L)
  expect_identical(prd_curve_info(cv)$details[[1]]$atom_columns, 6L)
})

test_that("the reading with the atoms ignored draws the rows the exact one drew, and pairs", {
  # a and b tie at 0; r (the other half of the data, shifted by 1: on the
  # grid as the real set) does not, and keeps its exact reading. The second
  # reading starts from the first's random state: the same split and
  # half-samples, so prd_compare(atoms = "ignore") pairs r with a.
  dat <- atoms_models(n = 300)
  models <- list(a = dat$models$a, b = dat$models$b,
                 r = round(dat$models$a) + 1)
  set.seed(6)
  cv <- suppressWarnings(prd_curve(dat$real, models, method = "marginal",
                                   replicates = 4),
                         classes = "prdcurve_warning_grid_columns")
  info <- prd_curve_info(cv)
  kept <- lapply(info$details, `[[`, "atoms_ignored")
  expect_identical(vapply(kept, is.null, NA), c(FALSE, FALSE, TRUE))
  kept_info <- prd_curve_info(kept[[1]])
  expect_identical(kept_info$real_set, info$real_set[3])
  expect_identical(kept_info$real_draws, info$real_draws[3])
  cmp <- prd_compare(cv, baseline = "a", atoms = "ignore")
  d <- cmp[cmp$model == "r" & cmp$statistic == "auc", ]
  ka <- summary(kept[[1]])$auc
  expect_equal(d$estimate, summary(cv)$auc[3] - ka)
  # the interval from the pairs' differences: r's halves less a's (ignored)
  long <- prdcurve:::replicate_statistics(cv)$replicates
  lr <- long[long$model == "r" & long$statistic == "auc", ]
  la <- prdcurve:::replicate_statistics(kept[[1]])$replicates
  la <- la[la$statistic == "auc", ]
  dv <- lr$value[order(lr$replicate)] - la$value[order(la$replicate)]
  D <- dv[c(TRUE, FALSE)] - dv[c(FALSE, TRUE)]
  half <- stats::qt(0.95, df = 2) * sqrt(mean(D^2) / 4)
  expect_equal(c(d$lower, d$upper),
               c(max(-1, d$estimate - half), min(1, d$estimate + half)),
               tolerance = 1e-12)
})

test_that("the grid warning gives the share of the other set on the atom: a ReLU unit's zeros against a model's constant 0", {
  set.seed(1)
  n <- 600
  x <- pmax(matrix(rnorm(n * 4, -0.5), n), 0)
  y <- pmax(matrix(rnorm(n * 4, -0.5), n), 0)
  y[, 1] <- 0
  share <- mean(x[, 1] == 0)
  w <- tryCatch(prd_curve(x, y, method = "knn", angles = 21),
                prdcurve_warning_grid_columns = function(w) w)
  msg <- cli::ansi_strip(conditionMessage(w))
  expect_match(msg, paste0("constant in this set only: column 1 (the real set takes these values in ",
                           signif(100 * share, 2), "% of its rows)"), fixed = TRUE)
  expect_match(msg, "the true curve is at most about that share", fixed = TRUE)
  # where the other set never takes the atom, no share is given
  y2 <- y
  y2[, 1] <- -1
  w <- tryCatch(prd_curve(x, y2, method = "knn", angles = 21),
                prdcurve_warning_grid_columns = function(w) w)
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "constant in this set only: column 1\n", fixed = TRUE)
})
