test_that("format_number() writes plain notation", {
  expect_identical(format_number(c(0, 1, -0.1, 0.5, 1e6, 1234567.25, 2^31 - 1)),
                   c("0", "1", "-0.1", "0.5", "1,000,000", "1,234,570",
                     "2,147,483,647"))
  expect_identical(format_number(c(1e-4, 123.456789)), c("0.0001", "123.457"))
  # beyond plain notation: a short scientific form without "+" or leading 0s
  expect_identical(format_number(c(2.36e200, 1e-20, 1e150)),
                   c("2.36e200", "1e-20", "1e150"))
  expect_identical(format_number(c(NA, Inf, -Inf, NaN)),
                   c("NA", "Inf", "-Inf", "NaN"))
})

test_that("errors name the user's argument, the user's call and plain numbers", {
  quiet_traps({
    a <- matrix(as.double(1:60) %% 7, 20)
    err <- expect_error(prd_curve(a, a, replicates = 1),
                        class = "prdcurve_error_replicates")
    expect_match(conditionMessage(err), "`replicates` must be 0")
    expect_no_match(conditionMessage(err), "1L")
    err <- expect_error(manifold_metrics(a, a, replicates = 1),
                        class = "prdcurve_error_replicates")
    expect_match(conditionMessage(err), "`replicates`")
    err <- expect_error(prd_curve(a, a, k = 0), class = "prdcurve_error_input")
    expect_match(conditionMessage(err), "It is 0\\.")
    expect_no_match(conditionMessage(err), "e\\+00")
    err <- expect_error(prd_curve(a, a, angles = 1e7),
                        class = "prdcurve_error_input")
    expect_match(conditionMessage(err), "It is 10,000,000.", fixed = TRUE)
    err <- expect_error(prd_curve(a, a, k = 1e6),
                        class = "prdcurve_error_k_too_large")
    expect_match(conditionMessage(err), "`k` = 1,000,000 is too large",
                 fixed = TRUE)
    err <- expect_error(prd_curve(a, a, split = -0.1),
                        class = "prdcurve_error_split")
    expect_match(conditionMessage(err), "It is -0.1.", fixed = TRUE)
    # checks run inside internal helpers report the function the user called
    expect_identical(as.character(conditionCall(err)[[1]]), "prd_curve")
    err <- expect_error(manifold_metrics(a, a, k = 0),
                        class = "prdcurve_error_input")
    expect_identical(as.character(conditionCall(err)[[1]]), "manifold_metrics")
    err <- expect_error(entropy_metrics(a, a, split = 5),
                        class = "prdcurve_error_split")
    expect_identical(as.character(conditionCall(err)[[1]]), "entropy_metrics")
    expect_match(conditionMessage(err), "It is 5.", fixed = TRUE)
  })
})

test_that("warn_unused() names the arguments, their reader and its field", {
  w <- expect_warning(warn_unused(c("k", "closed"), "the neighbour families"),
                      class = "prdcurve_warning_unused_argument")
  expect_identical(w$arguments, c("k", "closed"))
  expect_identical(cli::ansi_strip(conditionMessage(w)),
                   "`k` and `closed` are used by the neighbour families only; they are ignored here.")
  w <- expect_warning(warn_unused("folds", "the fitted families"),
                      class = "prdcurve_warning_unused_argument")
  expect_match(conditionMessage(w), "`folds` is used by the fitted families only; it is ignored here.",
               fixed = TRUE)
})
