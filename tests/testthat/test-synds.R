# synthpop objects as generated sets (R/synds.R) and their missing codes
# in the encoding (missing_fills(), R/encode.R)

# a synds object as synthpop::syn() returns it, the fields read here
fake_synds <- function(syn, cont.na = NULL, strata = FALSE) {
  m <- if (is.data.frame(syn)) 1L else length(syn)
  structure(list(syn = syn, m = m, cont.na = cont.na,
                 strata.syn = if (strata) "s"),
            class = "synds")
}

coded_sets <- function(n = 150, seed = 3) {
  set.seed(seed)
  real <- data.frame(x = round(rexp(n) * 100), g = sample(c("a", "b"), n, TRUE))
  gen <- data.frame(x = round(rexp(n) * 120), g = sample(c("a", "b"), n, TRUE))
  real$x[c(1, 5, 9, 20)] <- -8
  real$x[c(2, 30)] <- NA
  gen$x[c(3, 4, 50)] <- -8
  gen$x[60] <- -9
  list(real = real, gen = gen)
}

test_that("a synds object is its synthetic data frames, named", {
  df <- data.frame(x = 1:3)
  s1 <- fake_synds(df, list(x = c(NA, -8)))
  out <- synds_sets(s1)
  expect_identical(out$generated, df)
  expect_identical(out$codes, list(x = -8))
  s2 <- fake_synds(list(df, df + 1L), list(x = NA, y = c(NA, -9, -8)))
  out <- synds_sets(s2)
  expect_identical(names(out$generated), c("syn_1", "syn_2"))
  expect_identical(out$generated$syn_2, df + 1L)
  expect_identical(out$codes, list(y = c(-9, -8)))
  # in a list: m sets named after the element, other sets as they are,
  # the codes the union
  out <- synds_sets(list(cart = s2, other = df, s1))
  expect_identical(names(out$generated), c("cart_1", "cart_2", "other", "model_3"))
  expect_identical(out$codes, list(y = c(-9, -8), x = -8))
  # with strata cont.na is a matrix of lists, a row a stratum
  cna <- matrix(list(NA, c(NA, -8)), 2, 2, byrow = TRUE,
                dimnames = list(NULL, c("x", "y")))
  expect_identical(synds_codes(fake_synds(df, cna, strata = TRUE)), list(y = -8))
  expect_true(has_synds(s1))
  expect_true(has_synds(list(a = df, b = s2)))
  expect_false(has_synds(list(a = df)))
  expect_false(has_synds(df))
  # a list without synds objects and a data frame pass unchanged
  expect_identical(synds_sets(list(a = df))$generated, list(a = df))
  expect_identical(synds_sets(df)$codes, list())
  # no synthetic data: a classed error naming the argument
  expect_error(synds_sets(fake_synds(list(1, 2)), "gen"), "`gen` is a synthpop object",
               class = "prdcurve_error_input")
  # the functions of one generated set refuse m > 1 with the fix
  expect_error(prd_histogram(df, s2), "syn[[1]]", fixed = TRUE,
               class = "prdcurve_error_input")
})

test_that("missing codes become indicator columns, the value the median of the others", {
  s <- coded_sets()
  syn <- fake_synds(s$gen, list(x = c(NA, -8, -7), g = NA))
  msgs <- list()
  expect_warning(sets <- withCallingHandlers(
    prepare_samples(s$real, syn, check_scale = FALSE),
    message = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    }), class = "prdcurve_warning_category_levels")
  cls <- vapply(msgs, function(m) class(m)[1], "")
  expect_true("prdcurve_message_missing_codes" %in% cls)
  expect_match(cli::ansi_strip(conditionMessage(msgs[[which(cls == "prdcurve_message_missing_codes")]])),
               "missing codes of x (x=-8)", fixed = TRUE)
  # -7 occurs in no set: no column; -9 is no code: a value
  expect_identical(colnames(sets$real), c("x", "x=<NA>", "x=-8", "g=a", "g=b"))
  fill <- stats::median(s$real$x[!is.na(s$real$x) & s$real$x != -8])
  special <- function(x) is.na(x) | x == -8
  expect_identical(unname(sets$real[, "x"]),
                   ifelse(special(s$real$x), fill, s$real$x))
  expect_identical(unname(sets$generated$generated[, "x"]),
                   ifelse(special(s$gen$x), fill, s$gen$x))
  expect_identical(sets$generated$generated[60, "x"], c(x = -9))
  expect_identical(unname(sets$real[, "x=-8"]),
                   ifelse(!is.na(s$real$x) & s$real$x == -8, 0.5, 0))
  expect_identical(unname(sets$generated$generated[, "x=-8"]),
                   ifelse(s$gen$x == -8, 0.5, 0))
  expect_identical(unname(sets$real[, "x=<NA>"]), ifelse(is.na(s$real$x), 0.5, 0))
  expect_identical(attr(sets$real, "encoding")$category,
                   c(NA, "<NA>", "-8", "a", "b"))
  # the same data frame without the synds object: -8 is a value
  plain <- suppressMessages(suppressWarnings(prepare_samples(s$real, s$gen)))
  expect_identical(colnames(plain$real), c("x", "x=<NA>", "g=a", "g=b"))
  expect_identical(plain$real[1, "x"], c(x = -8))
  # the curve of a synds object is that of the encoded matrices, exactly
  run <- function(a, b) {
    set.seed(9)
    suppressMessages(suppressWarnings(prd_curve(a, b, method = c("knn", "marginal"),
                                                angles = 21)))
  }
  cv <- run(s$real, syn)
  by_hand <- run(unname(sets$real), unname(sets$generated$generated))
  expect_identical(cv$precision, by_hand$precision)
  expect_identical(cv$recall, by_hand$recall)
  # a column whose every value is a code or missing: the value 0, as
  # synthpop sets it
  r2 <- data.frame(x = c(-8, -8, NA, -8, -8, -8), y = c(1, 4, 2, 5, 3, 6))
  s2 <- suppressMessages(suppressWarnings(
    prepare_samples(r2, fake_synds(r2, list(x = -8)))))
  expect_identical(colnames(s2$real), c("x", "x=<NA>", "x=-8", "y"))
  expect_identical(unname(s2$real[, "x"]), numeric(6))
  expect_identical(unname(s2$real[, "x=-8"]), c(0.5, 0.5, 0, 0.5, 0.5, 0.5))
})

test_that("pMSE of a synds object with missing codes is synthpop's", {
  skip_if_not_installed("synthpop")
  data("SD2011", package = "synthpop", envir = environment())
  d <- SD2011[1:1000, c("sex", "age", "edu", "income")]
  s <- synthpop::syn(d, seed = 1, print.flag = FALSE,
                     cont.na = list(income = c(NA, -8)))
  ours <- suppressWarnings(suppressMessages(pmse_stats(d, s)))
  theirs <- synthpop::utility.gen(s, d, method = "logit", print.flag = FALSE)
  expect_equal(ours$value, c(theirs$pMSE, theirs$S_pMSE), tolerance = 1e-10)
  expect_identical(unname(attr(ours, "parameters")), 33L)
  # without the codes (-8 a value) the model has fewer parameters and
  # another pMSE (27 and 0.00362)
  plain <- suppressWarnings(suppressMessages(pmse_stats(d, s$syn)))
  expect_identical(unname(attr(plain, "parameters")), 27L)
  expect_gt(abs(plain$value[1] - theirs$pMSE), 1e-3)
})
