# Data of the figures' tests, shared by test-plot*.R.

figure_data <- function() {
  set.seed(181)
  real <- matrix(rnorm(150 * 2), ncol = 2)
  models <- list(a = matrix(rnorm(300, 0.3), ncol = 2),
                 b = matrix(rnorm(300, 0.9), ncol = 2),
                 c = matrix(rnorm(300, 0), ncol = 2))
  list(real = real, models = models,
       cv = prd_curve(real, models, method = c("knn", "coverage", "ipr"),
                      replicates = 4, angles = 41),
       cv1 = prd_curve(real, models, method = "knn", replicates = 4,
                       angles = 41),
       m = manifold_metrics(real, models,
                            metrics = c("precision", "recall", "density"),
                            k = c(3, 5), replicates = 4))
}

# three neighbour curves of two small Gaussian sets (test-plot.R,
# test-plot-theme.R)
curves <- function() {
  set.seed(31)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  generated <- matrix(rnorm(60 * 2, mean = 0.8), ncol = 2)
  prd_curve(real, generated, method = c("knn", "coverage", "ipr"), split = 0,
            angles = 21)
}
