# The shifted Gaussians' closed form, shared by the validity tests.

shift_alpha <- function(lambda, delta) {
  # alpha_lambda of N(0, I) against N(mu, I), |mu| = delta (Simon et al.
  # 2019, Theorem 4; SPEC.md section 5), written out here
  t <- log(lambda) / delta + delta / 2
  pmin(lambda * pnorm(t, lower.tail = FALSE) + pnorm(t - delta), pmin(lambda, 1))
}
