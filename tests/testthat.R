library(testthat)
library(prdcurve)

# CRAN policy: at most two cores in checks.
prd_threads(min(2L, prd_threads()))
Sys.setenv(OPENBLAS_NUM_THREADS = "1", OMP_THREAD_LIMIT = "2")

test_check("prdcurve")
