# The engine's products in single precision (options(prdcurve.precision),
# src/products.c "float32 tiles"): every decision is made exact by the
# recomputation window, so every result equals the double-precision one
# bit for bit, on data chosen to sit on the windows' edges.

test_that("options(prdcurve.precision) is validated", {
  quiet_traps({
    real <- matrix(rnorm(40), 20)
    withr::local_options(prdcurve.precision = "half")
    expect_error(prd_curve(real, real, method = "knn", k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = c("double", "single"))
    expect_error(manifold_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = 1)
    expect_error(entropy_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
  })
})
