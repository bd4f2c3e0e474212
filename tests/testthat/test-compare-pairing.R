# What prd_compare() pairs (R/compare-pairing.R): curves of the baseline's
# method and k, of the same real set, replicates and draws of its rows.

set.seed(71)
real <- matrix(rnorm(200 * 4), ncol = 4)
gen_a <- matrix(rnorm(200 * 4, mean = 0.3), ncol = 4)
gen_b <- matrix(rnorm(200 * 4, mean = 0.1), ncol = 4)

# prd_curve() of knn (k = 6) with 4 replicates under `seed`
knn_curve <- function(real, gens, seed, k = 6, replicates = 4,
                      method = "knn", repeats = NULL) {
  set.seed(seed)
  prd_curve(real, gens, method = method, k = k, replicates = replicates,
            angles = 51, repeats = repeats)
}

message_of <- function(cnd) gsub("\\s+", " ", cli::ansi_strip(conditionMessage(cnd)))

test_that("a model without a curve of the baseline's method and k is an error naming both", {
  a <- knn_curve(real, list(a = gen_a), 1)
  d <- knn_curve(real, list(d = gen_b), 2, k = 5)
  err <- expect_error(prd_compare(prd_bind(a, d), baseline = "a"),
                      class = "prdcurve_error_unmatched")
  msg <- message_of(err)
  expect_match(msg, "Model \"d\" has no curve of the baseline's method and `k`",
               fixed = TRUE)
  expect_match(msg, "Baseline \"a\": knn (k = 6).", fixed = TRUE)
  expect_match(msg, "\"d\": knn (k = 5).", fixed = TRUE)
  expect_match(msg, "same `method` and `k`", fixed = TRUE)
  expect_identical(as.character(conditionCall(err)[[1]]), "prd_compare")
  # another method; several models without one, each named
  cov <- knn_curve(real, list(d = gen_b), 1, method = "coverage")
  err <- expect_error(prd_compare(prd_bind(a, cov), baseline = "a"),
                      class = "prdcurve_error_unmatched")
  expect_match(message_of(err), "\"d\": coverage (k = 6).", fixed = TRUE)
  e <- knn_curve(real, list(e = gen_b), 1, k = 7)
  err <- expect_error(prd_compare(prd_bind(a, d, e), baseline = "a"),
                      class = "prdcurve_error_unmatched")
  msg <- message_of(err)
  expect_match(msg, "Models \"d\" and \"e\" have no curve", fixed = TRUE)
  expect_match(msg, "\"e\": knn (k = 7).", fixed = TRUE)
})

test_that("curves without a counterpart, or without a model, are left out with a warning", {
  both <- knn_curve(real, list(a = gen_a, b = gen_b), 3,
                    method = c("knn", "coverage"))
  one <- both[both$method == "knn", ]
  ref <- prd_compare(one, baseline = "a")
  # b's coverage curve dropped: a's is left out, the knn rows as they were
  part <- both[!(both$model == "b" & both$method == "coverage"), ]
  w <- expect_warning(cmp <- prd_compare(part, baseline = "a"),
                      class = "prdcurve_warning_unmatched")
  expect_match(message_of(w), "a coverage (k = 6) (against b)", fixed = TRUE)
  expect_identical(cmp, ref)
  # a truth curve bound in: no model, no replicates
  tr <- prd_truth_gaussian(rep(0, 4), c(0.3, 0, 0, 0), angles = 51)
  w <- expect_warning(cmp <- prd_compare(prd_bind(one, truth = tr)),
                      class = "prdcurve_warning_unmatched")
  expect_match(message_of(w), "leaves out the curve without a model: \"truth\"",
               fixed = TRUE)
  expect_identical(cmp, ref)
})

test_that("curves of another real set, replicates or draw do not pair: an error naming which", {
  a <- knn_curve(real, list(a = gen_a), 1)
  other <- matrix(rnorm(200 * 4, mean = 2), ncol = 4)
  b <- knn_curve(other, list(b = gen_b), 1)
  err <- expect_error(prd_compare(prd_bind(a, b), baseline = "a"),
                      class = "prdcurve_error_unpaired")
  msg <- message_of(err)
  expect_match(msg, "\"b\", knn (k = 6): computed on another real set than the baseline's.",
               fixed = TRUE)
  expect_match(msg, "prd_curve(real, list(a = ..., b = ...), replicates = 4)",
               fixed = TRUE)
  expect_identical(as.character(conditionCall(err)[[1]]), "prd_compare")
  # the same real set, 6 replicates against 4, or none
  b6 <- knn_curve(real, list(b = gen_b), 1, replicates = 6)
  err <- expect_error(prd_compare(prd_bind(a, b6), baseline = "a"),
                      class = "prdcurve_error_unpaired")
  expect_match(message_of(err), "\"b\", knn (k = 6): 6 replicates, the baseline's 4 replicates.",
               fixed = TRUE)
  b0 <- knn_curve(real, list(b = gen_b), 1, replicates = 0)
  err <- expect_error(prd_compare(prd_bind(a, b0), baseline = "a"),
                      class = "prdcurve_error_unpaired")
  expect_match(message_of(err), "no replicates, the baseline's 4 replicates",
               fixed = TRUE)
  # the same real set and replicates under another seed: other halves
  b2 <- knn_curve(real, list(b = gen_b), 2)
  expect_identical(prd_curve_info(b2)$real_set, prd_curve_info(a)$real_set)
  expect_false(identical(prd_curve_info(b2)$real_draws,
                         prd_curve_info(a)$real_draws))
  err <- expect_error(prd_compare(prd_bind(a, b2), baseline = "a"),
                      class = "prdcurve_error_unpaired")
  expect_match(message_of(err), "the same real set, but other real rows in its split or half-samples",
               fixed = TRUE)
  # only the models that do not pair are named
  c2 <- knn_curve(real, list(b = gen_a, c = gen_b), 1)
  err <- expect_error(prd_compare(prd_bind(prd_bind(a, b2), c = c2[c2$model == "c", ]),
                                  baseline = "a"),
                      class = "prdcurve_error_unpaired")
  msg <- message_of(err)
  expect_match(msg, "model \"b\" does not pair", fixed = TRUE)
  expect_no_match(msg, "\"c\",", fixed = TRUE)
})

test_that("models of one call, or of calls that drew the same rows, pair as before", {
  # one call: every model has the same fingerprints
  one <- knn_curve(real, list(a = gen_a, b = gen_b), 5)
  info <- prd_curve_info(one)
  expect_length(unique(info$real_set), 1L)
  expect_length(unique(info$real_draws), 1L)
  expect_match(info$real_set[1], "^[0-9a-f]{32}$")
  ref <- prd_compare(one, baseline = "a")
  # separate calls under the same seed, the real rows in another order and
  # as a data frame: the same draws, the same comparison
  a <- knn_curve(real, list(a = gen_a), 5)
  b <- knn_curve(as.data.frame(real[200:1, ]), list(b = gen_b), 5)
  expect_identical(prd_curve_info(b)$real_set, info$real_set[1])
  expect_identical(prd_curve_info(b)$real_draws, info$real_draws[1])
  expect_identical(prd_compare(prd_bind(a, b), baseline = "a"), ref)
  # the numbers of this comparison before the curves kept fingerprints
  # (one split, as then; 200 rows a set average 5 by default)
  expect_identical(unique(vapply(info$details, `[[`, 1L, "repeats")), 5L)
  ref <- prd_compare(knn_curve(real, list(a = gen_a, b = gen_b), 5,
                               repeats = 1), baseline = "a")
  auc <- ref[ref$statistic == "auc", ]
  expect_equal(c(auc$estimate, auc$lower, auc$upper),
               c(0.10241289624486, -0.0199668835723689, 0.224792676062089),
               tolerance = 1e-12)
})

test_that("the real set's fingerprint: its values and dimensions, not names, type or scale", {
  fp <- prdcurve:::real_set_fingerprint
  x <- matrix(c(1, -2, 3.5, 4, 0, 6), 3)
  named <- x
  dimnames(named) <- list(NULL, c("u", "v"))
  attr(named, "ids") <- 1:3
  expect_identical(fp(named), fp(x))
  expect_identical(fp(x * 2^-70, 2^-70), fp(x))
  w <- matrix(c(1L, 2L, 3L, 4L, 0L, 6L), 3)
  expect_identical(fp(w), fp(matrix(c(1, 2, 3, 4, 0, 6), 3)))
  expect_false(identical(fp(x), fp(matrix(c(1, -2, 3.5, 4, 0, 7), 3))))
  expect_false(identical(fp(x), fp(matrix(x, 2))))
  # the draws: the half's rows and the split's real rows
  sp <- prdcurve:::resolve_model_splits(0.5, x, list(g = x))
  dr <- prdcurve:::real_draws_fingerprint
  expect_identical(dr(sp, c(1, 3)), dr(sp, c(1L, 3L)))
  expect_false(identical(dr(sp, c(1L, 3L)), dr(sp, c(1L, 2L))))
  expect_false(identical(dr(sp), dr(sp, 1:3)))
})

test_that("metrics tables bound with rbind(): a model without replicates is unpaired", {
  set.seed(1)
  R <- matrix(rnorm(1200), 200)
  a <- manifold_metrics(R, list(a = matrix(rnorm(1200, 0.3), 200)), replicates = 4)
  b <- manifold_metrics(R, list(b = matrix(rnorm(1200, 0.1), 200)), replicates = 4)
  e <- expect_error(prd_compare(rbind(a, b), baseline = "a"),
                    class = "prdcurve_error_unpaired")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "no half-sample replicates of model \"b\"", fixed = TRUE)
  # one call's table compares
  both <- manifold_metrics(R, list(a = matrix(rnorm(1200, 0.3), 200),
                                   b = matrix(rnorm(1200, 0.1), 200)),
                           replicates = 4)
  cmp <- prd_compare(both, baseline = "a")
  expect_setequal(unique(cmp$model), "b")
  expect_true(all(is.finite(cmp$estimate)))
})

test_that("the draws' fingerprints read the rows' values, not their representation", {
  # sort() returns an ALTREP wrapper, which serializes (so hashes) apart
  # from a plain vector of the same values: under a future plan the
  # split's rows once hashed apart from the sequential run's
  set.seed(2)
  rows <- sort(sample(40, 20))
  plain <- rows + 0L
  expect_identical(rows, plain)
  expect_identical(prdcurve:::plain_rows(rows), plain)
  expect_identical(rlang::hash(prdcurve:::plain_rows(rows)),
                   rlang::hash(prdcurve:::plain_rows(plain)))
  # doubles are row numbers too
  expect_identical(prdcurve:::plain_rows(as.double(rows)), plain)
  s <- prdcurve:::new_split(list(rows, 1:10),
                            list(sort(setdiff(1:40, rows)), 11:20), 0.5)
  s2 <- prdcurve:::new_split(list(plain, 1:10),
                             list(setdiff(1:40, plain) + 0L, 11:20), 0.5)
  expect_identical(prdcurve:::real_draws_fingerprint(list(s), rows),
                   prdcurve:::real_draws_fingerprint(list(s2), plain))
})
