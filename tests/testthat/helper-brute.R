# Brute-force reference implementations of SPEC.md, written for clarity and
# not speed: full squared-distance matrices, sorting, and every classifier
# of the family tried at every lambda.

sq_dist <- function(a, b) {
  out <- matrix(0, nrow(a), nrow(b))
  for (l in seq_len(ncol(a))) out <- out + outer(a[, l], b[, l], "-")^2
  out
}

kth_skip <- function(v, k, skip = NA) {
  if (!is.na(skip)) v <- v[-skip]
  sort(v)[k]
}

in_ball <- function(d2, r2, closed) if (closed) d2 <= r2 else d2 < r2

# Evidences a, b of every evaluation point (real evaluation rows first).
brute_evidence <- function(real, generated, method, k, fit, eval = NULL,
                           closed = TRUE, sigma = NULL) {
  self <- is.null(eval)
  if (self) eval <- fit
  xf <- real[fit[[1]], , drop = FALSE]
  yf <- generated[fit[[2]], , drop = FALSE]
  z <- rbind(real[eval[[1]], , drop = FALSE],
             generated[eval[[2]], , drop = FALSE])
  nfx <- nrow(xf)
  nex <- length(eval[[1]])
  own_x <- vapply(seq_len(nfx), function(i)
    kth_skip(sq_dist(xf[i, , drop = FALSE], xf)[1, ], k, i), 0)
  own_y <- vapply(seq_len(nrow(yf)), function(i)
    kth_skip(sq_dist(yf[i, , drop = FALSE], yf)[1, ], k, i), 0)
  sx2 <- if (is.null(sigma)) mean(sqrt(own_x))^2 else sigma[1]^2
  sy2 <- if (is.null(sigma)) mean(sqrt(own_y))^2 else rep_len(sigma, 2)[2]^2
  ab <- t(vapply(seq_len(nrow(z)), function(e) {
    dx <- sq_dist(z[e, , drop = FALSE], xf)[1, ]
    dy <- sq_dist(z[e, , drop = FALSE], yf)[1, ]
    sx <- if (self && e <= nex) e else NA
    sy <- if (self && e > nex) e - nex else NA
    sp <- if (self) e else NA
    switch(method,
      knn = {
        r <- kth_skip(c(dx, dy), k, sp)
        c(sum(in_ball(dx, r, closed)), sum(in_ball(dy, r, closed)))
      },
      coverage = c(sum(in_ball(dx, kth_skip(dy, k, sy), closed)),
                   sum(in_ball(dy, kth_skip(dx, k, sx), closed))),
      ipr = c(sum(in_ball(dx, own_x, closed)), sum(in_ball(dy, own_y, closed))),
      kde = c(sum(in_ball(dx, sx2, closed)), sum(in_ball(dy, sy2, closed)))
    )
  }, numeric(2)))
  list(a = ab[, 1], b = ab[, 2], n_real = nex,
       sigma = sqrt(c(sx2, sy2)))
}

# Every rule of the family at every lambda (SPEC.md section 2), scores
# normalised by the fit sizes n_xf, n_yf.
brute_envelope <- function(a_real, b_real, a_gen, b_gen, lambda, n_xf = 1,
                           n_yf = 1) {
  sx <- brute_score(a_real, b_real, n_xf, n_yf)
  sy <- brute_score(a_gen, b_gen, n_xf, n_yf)
  rules <- list(function(s, a, b) rep(FALSE, length(s)),
                function(s, a, b) rep(TRUE, length(s)),
                function(s, a, b) a >= 1,
                function(s, a, b) b == 0)
  for (t in sort(unique(c(sx, sy)))) {
    rules <- c(rules, local({
      tt <- t
      list(function(s, a, b) s <= tt, function(s, a, b) s < tt)
    }))
  }
  err <- t(vapply(rules, function(f) {
    c(mean(!f(sx, a_real, b_real)), mean(f(sy, a_gen, b_gen)))
  }, numeric(2)))
  alpha <- vapply(lambda, function(l) min(l * err[, 1] + err[, 2]), 0)
  list(alpha = alpha, alpha_inf = min(err[err[, 1] == 0, 2]),
       beta_0 = min(err[err[, 2] == 0, 1]))
}

brute_curve <- function(real, generated, method, k, fit, eval = NULL,
                        closed = TRUE, lambda, sigma = NULL) {
  ev <- brute_evidence(real, generated, method, k, fit, eval, closed, sigma)
  ix <- seq_len(ev$n_real)
  env <- brute_envelope(ev$a[ix], ev$b[ix], ev$a[-ix], ev$b[-ix], lambda,
                        length(fit[[1]]), length(fit[[2]]))
  data.frame(lambda = c(0, lambda, Inf),
             precision = c(0, env$alpha, env$alpha_inf),
             recall = c(env$beta_0, env$alpha / lambda, 0))
}

# Scalar manifold metrics of SPEC.md section 3 without a split (fit =
# evaluation = the whole set), straight from their definitions.
brute_scalar <- function(real, generated, k, closed = TRUE) {
  dxx <- sq_dist(real, real)
  dyy <- sq_dist(generated, generated)
  dyx <- sq_dist(generated, real)   # rows: generated, columns: real
  rx <- vapply(seq_len(nrow(real)), function(i) kth_skip(dxx[i, ], k, i), 0)
  ry <- vapply(seq_len(nrow(generated)), function(i)
    kth_skip(dyy[i, ], k, i), 0)
  inb <- function(d2, r2) in_ball(d2, r2, closed)
  c(
    # share of y inside some real k-NN ball
    precision = mean(apply(inb(dyx, matrix(rx, nrow(dyx), ncol(dyx), byrow = TRUE)), 1, any)),
    # share of x inside some generated k-NN ball
    recall = mean(apply(inb(t(dyx), matrix(ry, ncol(dyx), nrow(dyx), byrow = TRUE)), 1, any)),
    # share of x whose own k-NN ball holds some y
    coverage = mean(apply(inb(t(dyx), matrix(rx, ncol(dyx), nrow(dyx))), 1, any)),
    # share of y whose own k-NN ball holds some x
    c_precision = mean(apply(inb(dyx, matrix(ry, nrow(dyx), ncol(dyx))), 1, any))
  )
}

# Scores s = (b / n_yf) / (a / n_xf) of the evaluation points (b / 0 = Inf,
# 0 / 0 = 1), SPEC.md section 2, as exact rational comparisons: the
# product form (b n_xf) / (a n_yf) of integers.
brute_score <- function(a, b, n_xf = 1, n_yf = 1) {
  ifelse(a == 0, ifelse(b == 0, 1, Inf), (b * n_xf) / (a * n_yf))
}

# A sample set with its rows in the canonical order prd_curve() draws its
# random assignments over (R/canonical.R): the brute force of a test that
# repeats prd_curve()'s draws (same seed) reads the rows in that order.
in_canonical_order <- function(x) {
  x[prdcurve:::canonical_order(x), , drop = FALSE]
}
