# The fitted families and "tightest" against the exact curves, with the
# default 10 folds and with one fit on the fit rows (folds = 1): the
# numbers of ?prd_curve's section "Where each family is loose" for these
# families. One draw of 2,000 points per set (set.seed(d)) at d = 16, 256
# and 1,024: N(0, I) against N(2 e1, I) (true AUC 0.258), N(0, 1.2^2 I)
# (0.669, 0.007, 0.000) and N(0, 0.8^2 I) (0.561, 0.001, 0.000).
#
# Usage (package root, prdcurve installed): Rscript bench/loose-families.R
suppressPackageStartupMessages(library(prdcurve))
options(prdcurve.progress = FALSE)
res <- list()
for (d in c(16, 256, 1024)) {
  set.seed(d)
  n <- 2000
  x <- matrix(rnorm(n * d), n)
  g <- list(shift = {
    y <- matrix(rnorm(n * d), n)
    y[, 1] <- y[, 1] + 2
    y
  }, var1.2 = matrix(rnorm(n * d, sd = 1.2), n),
  var0.8 = matrix(rnorm(n * d, sd = 0.8), n))
  for (f in c(1, 10)) {
    cv <- suppressWarnings(prd_curve(x, g, folds = f, method = c(
      "linear", "quadratic", "stacked", "tightest")))
    s <- summary(cv)
    res[[length(res) + 1L]] <- data.frame(d = d, folds = f, model = s$model,
                                          method = s$method,
                                          auc = round(s$auc, 3))
  }
}
r <- do.call(rbind, res)
w <- reshape(r, idvar = c("model", "method", "folds"), timevar = "d",
             direction = "wide")
print(w[order(w$model, w$folds, w$method), ], row.names = FALSE)
