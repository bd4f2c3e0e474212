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
