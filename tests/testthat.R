library(testthat)
library(prdcurve)

# CRAN policy: at most two cores in checks.
prd_threads(min(2L, prd_threads()))

test_check("prdcurve")
