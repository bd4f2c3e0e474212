# The reductions behind embedding_metrics() (SPEC.md section 8): moments
# (fd, fd_inf, sw_approx, vendi), blocked sums over pairs of rows (kid,
# mmd_rbf, energy, and each generated row's nearest real row for authpct),
# and the copying test of Meehan et al. (ct). Inputs are validated double
# matrices (validate.R). No function here forms an n x n or n x m matrix:
# pair sums run over tiles of `embedding_tile()` x `embedding_tile()`
# pairs of rows, read from one centred copy of a set (n x d, as
# fd_infinity()'s transformed rows); the other passes run over blocks of
# rows.

#' Rows per side of a tile of pair sums (engine_knobs$embedding_tile;
#' tests: small tiles)
#' @noRd
embedding_tile <- function() {
  as.integer(engine_knobs$embedding_tile)
}

#' Row blocks of 1..n holding at most `cells` / ncols rows each
#' @noRd
row_blocks <- function(n, ncols, cells = 2^21) {
  size <- max(1L, as.integer(floor(cells / max(1, ncols))))
  starts <- seq.int(1L, n, by = size)
  lapply(starts, function(a) a:min(n, a + size - 1L))
}

#' Rows `rows` of x less `centre`
#' @noRd
centred_rows <- function(x, rows, centre) {
  x[rows, , drop = FALSE] - rep(centre, each = length(rows))
}

#' Sample mean and unbiased covariance (divisor n - 1) of the rows `rows`
#' of x, from blocks of centred rows (no copy of the rows)
#' @return list(mean, cov, n)
#' @noRd
set_moments <- function(x, rows = NULL) {
  n <- if (is.null(rows)) nrow(x) else length(rows)
  at <- function(r) if (is.null(rows)) r else rows[r]
  blocks <- row_blocks(n, ncol(x))
  mu <- if (is.null(rows)) colMeans(x) else
    Reduce(`+`, lapply(blocks, function(r) {
      colSums(x[at(r), , drop = FALSE])
    })) / n
  S <- matrix(0, ncol(x), ncol(x))
  for (b in blocks) S <- S + crossprod(centred_rows(x, at(b), mu))
  S <- S / (n - 1)
  S <- (S + t(S)) / 2
  list(mean = mu, cov = S, n = n)
}

#' The symmetric square root of a covariance, from its eigendecomposition
#' (eigenvalues below 0 from rounding clipped at 0)
#' @noRd
sym_sqrt <- function(S, e = eigen(S, symmetric = TRUE)) {
  v <- sqrt(pmax(e$values, 0))
  e$vectors %*% (v * t(e$vectors))
}

#' The Frechet distance of two Gaussian fits (SPEC.md section 8):
#' ||mu_x - mu_y||^2 + tr Sx + tr Sy - 2 sum sqrt(lambda_i), lambda_i the
#' eigenvalues of the symmetric Sx^(1/2) Sy Sx^(1/2) (those of Sx Sy),
#' negative rounding eigenvalues clipped at 0. `root_x`: sym_sqrt(Sx),
#' shared by the models.
#' @noRd
fd_value <- function(mx, my, root_x = sym_sqrt(mx$cov)) {
  M <- root_x %*% my$cov %*% root_x
  M <- (M + t(M)) / 2
  lam <- eigen(M, symmetric = TRUE, only.values = TRUE)$values
  dm <- mx$mean - my$mean
  sum(dm^2) + sum(diag(mx$cov)) + sum(diag(my$cov)) -
    2 * sum(sqrt(pmax(lam, 0)))
}

#' FD extrapolated to infinitely many generated rows (Chong and Forsyth
#' 2020, as dgm-eval's compute_FD_infinity): FD_N at 15 sizes N, equally
#' spaced from min(5000, max(m %/% 10, 2)) to m and truncated to whole
#' numbers, each on N generated rows drawn without replacement (the real
#' set whole); the intercept a of the least-squares line FD_N = a + b / N.
#'
#' One pass prepares every FD_N: the generated rows about their mean times
#' Sx^(1/2), W = (Y - c) Sx^(1/2), whose covariance over any subset is the
#' matrix Sx^(1/2) Sy Sx^(1/2) of fd_value(), and W'W. A subset of more
#' than m / 2 rows takes W'W less its complement's products, so each FD_N
#' costs min(N, m - N) rows' products and one eigendecomposition (values
#' only), not N rows' and two d x d products.
#' @noRd
fd_infinity <- function(mx, y, root_x = sym_sqrt(mx$cov), points = 15L) {
  m <- nrow(y)
  sizes <- as.integer(trunc(seq(min(5000, max(m %/% 10L, 2L)), m,
                                length.out = points)))
  c0 <- colMeans(y)
  W <- matrix(0, m, ncol(y))
  n2 <- double(m)
  for (b in row_blocks(m, ncol(y))) {
    z <- centred_rows(y, b, c0)
    n2[b] <- rowSums(z^2)
    W[b, ] <- z %*% root_x
  }
  G <- crossprod(W)
  # W'W over the rows `r`, a block of rows at a time (no copy of the rows)
  gram <- function(r) {
    S <- matrix(0, ncol(W), ncol(W))
    for (b in if (length(r)) row_blocks(length(r), ncol(W))) {
      S <- S + crossprod(W[r[b], , drop = FALSE])
    }
    S
  }
  # (drawn over the rows in canonical order: the same seed draws the same
  # rows whatever order they came in)
  ord <- canonical_order(y)
  fds <- vapply(sizes, function(N) {
    rows <- ord[sample.int(m, N)]
    pick <- double(m)
    pick[rows] <- 1 / N
    dy <- drop(crossprod(y, pick)) - c0
    S <- if (2L * N <= m) gram(rows) else G - gram(seq_len(m)[-rows])
    w <- drop(crossprod(W, pick))
    M <- (S - N * tcrossprod(w)) / (N - 1)
    lam <- eigen((M + t(M)) / 2, symmetric = TRUE, only.values = TRUE)$values
    tr_y <- (sum(n2[rows]) - N * sum(dy^2)) / (N - 1)
    sum((mx$mean - c0 - dy)^2) + sum(diag(mx$cov)) + tr_y -
      2 * sum(sqrt(pmax(lam, 0)))
  }, double(1))
  unname(stats::coef(stats::lm(fds ~ I(1 / sizes)))[1])
}

#' The sliced Wasserstein approximation of Nadjahi et al. (2021), as
#' dgm-eval's sw_approx: sqrt(||mu_x - mu_y||^2 / d + (sqrt(m2x) -
#' sqrt(m2y))^2), m2 the mean squared norm about the mean over d (the
#' trace of the covariance with divisor n, over d)
#' @noRd
sw_value <- function(mx, my) {
  d <- length(mx$mean)
  m2 <- function(s) sum(diag(s$cov)) * (s$n - 1) / s$n / d
  sqrt(sum((mx$mean - my$mean)^2) / d + (sqrt(m2(mx)) - sqrt(m2(my)))^2)
}

#' The Vendi score with q = 1 (Friedman and Dieng 2023): rows scaled to
#' unit norm (rows of norm 0 kept at 0, as scikit-learn's normalize()),
#' K = X X' / n, exp of the Shannon entropy of K's positive eigenvalues,
#' from the d x d matrix X' X / n when d < n (same nonzero eigenvalues).
#' A row whose squares underflow (norm below 1e-150: a row far smaller
#' than the largest, after the sets' common scale) is first divided by
#' its largest magnitude, so that it is a unit row too.
#' @noRd
vendi_value <- function(x) {
  n <- nrow(x)
  unit <- function(rows) {
    z <- x[rows, , drop = FALSE]
    nr <- sqrt(rowSums(z^2))
    tiny <- which(nr < 1e-150)
    if (length(tiny)) {
      top <- apply(abs(z[tiny, , drop = FALSE]), 1L, max)
      top[top == 0] <- 1
      z[tiny, ] <- z[tiny, , drop = FALSE] / top
      nr[tiny] <- sqrt(rowSums(z[tiny, , drop = FALSE]^2))
    }
    nr[nr == 0] <- 1
    z / nr
  }
  if (ncol(x) < n) {
    K <- matrix(0, ncol(x), ncol(x))
    for (b in row_blocks(n, ncol(x))) K <- K + crossprod(unit(b))
  } else {
    K <- tcrossprod(unit(seq_len(n)))
  }
  lam <- eigen(K / n, symmetric = TRUE, only.values = TRUE)$values
  lam <- lam[lam > 0]
  exp(-sum(lam * log(lam)))
}

#' The Vendi score of the rows of each class (labels `lab`, one per row),
#' as dgm-eval's compute_per_class_vendi_scores()
#' @return tibble(class, rows, vendi), classes in sorted order
#' @noRd
class_vendi <- function(x, lab) {
  cls <- sort(unique(lab))
  v <- vapply(cls, function(c) {
    vendi_value(x[lab == c, , drop = FALSE])
  }, double(1))
  tibble::tibble(class = cls, rows = as.integer(table(factor(lab, cls))),
                 vendi = unname(v))
}

#' Sums of kernels over the pairs of rows of a and b in one tiled pass:
#' the powers u, u^2, u^3 of u = x . y / d, from which kid_value() forms
#' KID's cubic polynomial kernel (`poly`: sums `poly1`, `poly2`, `poly3`), the
#' Gaussian kernel exp(-||x - y||^2 / (2 sigma^2)) (`rbf`), the distance
#' (`dist`); with `same`, a and b are one set and the sums run over i != j
#' (each unordered pair once, doubled; the tiles on and above the
#' diagonal). A tile is one product of `embedding_tile()` rows of each set,
#' centred at `centre` (the distances lose no digits to a common offset);
#' the inner products of the raw rows are recovered as
#' (a - c) . (b - c) + c . (a - c) + c . (b - c) + c . c.
#' With `nearest` (not `same`), also each row of b's nearest row of a:
#' its index (the first at the smallest squared distance) and that
#' squared distance.
#' @noRd
pair_sums <- function(a, b, same = FALSE, centre = colMeans(a),
                      want = c("poly", "rbf", "dist"), sigma = 1,
                      nearest = FALSE) {
  d <- ncol(a)
  cc <- sum(centre^2)
  tile <- embedding_tile()
  ta <- row_blocks(nrow(a), 1, tile)
  tb <- if (same) ta else row_blocks(nrow(b), 1, tile)
  # the inner loop's set about the centre, once (its tiles are read from
  # it), with each row's centred squared norm and c . (row - c); the outer
  # loop's rows are centred a tile at a time
  stats_of <- function(z) list(n2 = rowSums(z^2), u = drop(z %*% centre))
  na <- list(z = matrix(0, nrow(a), ncol(a)), n2 = double(nrow(a)),
             u = double(nrow(a)))
  for (r in row_blocks(nrow(a), ncol(a))) {
    z <- centred_rows(a, r, centre)
    na$z[r, ] <- z
    st <- stats_of(z)
    na$n2[r] <- st$n2
    na$u[r] <- st$u
  }
  out <- c(poly1 = 0, poly2 = 0, poly3 = 0, rbf = 0, dist = 0)
  best <- if (nearest) rep(Inf, nrow(b))
  best_j <- if (nearest) integer(nrow(b))
  par <- c(cc, d, sigma)
  flags <- c(c("poly", "rbf", "dist") %in% want, nearest)
  for (i in seq_along(tb)) {
    rows <- tb[[i]]
    bi <- if (same) na$z[rows, , drop = FALSE] else centred_rows(b, rows, centre)
    nb <- if (same) list(n2 = na$n2[rows], u = na$u[rows]) else stats_of(bi)
    for (j in if (same) i:length(ta) else seq_along(ta)) {
      cols <- ta[[j]]
      G <- tcrossprod(bi, na$z[cols, , drop = FALSE])
      # a tile of one set's own rows: i != j, each pair in both orders;
      # a tile above the diagonal: each pair once, doubled (src/kernels.c)
      mode <- if (!same) 0L else if (i == j) 1L else 2L
      r <- .Call(ffi_tile_kernels, G, nb$u, na$u[cols], nb$n2,
                 na$n2[cols], par, flags, mode)
      out <- out + r[[1]]
      if (nearest) {
        # the tiles of a in order, a strictly smaller value replaces: the
        # first index at the smallest distance
        upd <- r[[2]] < best[rows]
        best[rows[upd]] <- r[[2]][upd]
        best_j[rows[upd]] <- cols[r[[3]][upd]]
      }
    }
  }
  list(sums = out, nearest = best_j, nearest_d2 = best)
}

#' The common scale of a call's sets: the exponent e of the power of two
#' 2^-e by which embedding_compute() multiplies every set (0 within
#' 2^+-64, else that of the largest magnitude, curve_scale_exponent(), as
#' prd_curve()) and that largest magnitude `big`. The factor is exact in
#' binary floating point, so each metric on the rescaled rows is its value
#' on the rows as given times 2^(power e), `power` its registry entry's
#' (FD 2, energy 1, Vendi 0; KID a polynomial, kid_value()): the moments of
#' FD (the fourth power of the scale in Sx^(1/2) Sy Sx^(1/2)) and KID's
#' cubes (its sixth) neither overflow nor underflow for any value the input
#' check accepts (up to 1e100 and down to 1e-100).
#' @return list(scale_exp = e, big)
#' @noRd
embedding_scale <- function(sets, held_out = NULL) {
  mats <- c(list(sets$real), sets$generated, list(held_out))
  big <- max(vapply(mats, function(m) {
    if (is.null(m)) return(0)
    .Call(ffi_scan, as_double_matrix(m))[[2]]
  }, numeric(1)))
  list(scale_exp = curve_scale_exponent(big), big = big)
}

#' The unbiased MMD^2 from its three pair sums (SPEC.md section 8):
#' S_xx / (n (n - 1)) + S_yy / (m (m - 1)) - 2 S_xy / (n m), S_xx and S_yy
#' over i != j
#' @noRd
mmd_unbiased <- function(sxx, syy, sxy, n, m) {
  sxx / (n * (n - 1)) + syy / (m * (m - 1)) - 2 * sxy / (n * m)
}

#' The unbiased MMD^2 of each power u, u^2, u^3 of u = x . y / d, from
#' pair_sums()' sums over X x X, Y x Y and X x Y
#' @noRd
poly_mmds <- function(sxx, syy, sxy, n, m) {
  p <- c("poly1", "poly2", "poly3")
  mmd_unbiased(sxx[p], syy[p], sxy[p], n, m)
}

#' KID of the features as given from poly_mmds() `b` of the features times
#' 2^-e: the kernel (u + 1)^3 = 1 + 3u + 3u^2 + u^3, its constant cancelling
#' in the unbiased MMD^2 and the MMD^2 of u^p scaling as 2^(2pe), so KID =
#' sum_p choose(3, p) 2^(2pe) b_p (a polynomial in the squared scale, not a
#' power of it). The sum is formed at the scale of its largest term, so it
#' is finite whenever KID is; beyond the double range it is an error.
#' @noRd
kid_value <- function(b, e, big = NA_real_, call = rlang::caller_env()) {
  w <- choose(3, 1:3) * unname(b)
  k <- 2 * e * (1:3)
  nz <- w != 0
  if (!any(nz)) return(0)
  top <- max(k[nz] + floor(log2(abs(w[nz]))))
  s <- sum(times_pow2(w, k - top))
  out <- times_pow2(s, top)
  if (!is.finite(out)) {
    lg <- (top + log2(abs(s))) * log10(2)
    about <- sprintf("%s%.1fe%d", if (s < 0) "-" else "", 10^(lg %% 1),
                     as.integer(floor(lg)))
    prd_abort(c(
      "KID of these values is about {about}: beyond the range of a double (1.8e308).",
      "x" = "Its kernel (x . y / d + 1)^3 grows as the sixth power of the features' scale; their largest magnitude is {format_number(big, digits = 3)}.",
      "i" = "Divide {.arg real} and {.arg generated} by a common constant (KID is not scale-invariant), use {.code standardize = \"real\"}, or leave {.val kid} out of {.arg metrics}."
    ), "input", call = call)
  }
  out
}

#' x * 2^k for a whole k of any size (2^k itself leaves the double range
#' past |k| = 1023), exact unless the result over- or underflows
#' @noRd
times_pow2 <- function(x, k) {
  # steps of at most 2^1000 in the direction of the result, so that no
  # step over- or underflows unless the result does
  repeat {
    step <- pmax(pmin(k, 1000), -1000)
    x <- x * 2^step
    k <- k - step
    if (all(k == 0)) return(x)
  }
}

#' dgm-eval's KID: the mean over `subsets` draws of the unbiased polynomial
#' MMD^2 of min(subset_size, n, m) rows of each set, drawn without
#' replacement (compute_mmd()); R's RNG. Returns the mean of each subset's
#' poly_mmds() (KID is linear in them: kid_value() of the mean).
#' @noRd
kid_subsets <- function(x, y, subsets, subset_size) {
  s <- min(subset_size, nrow(x), nrow(y))
  # (drawn over the rows in canonical order: whatever order they came in)
  ox <- canonical_order(x)
  oy <- canonical_order(y)
  rowMeans(vapply(seq_len(subsets), function(i) {
    a <- x[ox[sample.int(nrow(x), s)], , drop = FALSE]
    b <- y[oy[sample.int(nrow(y), s)], , drop = FALSE]
    c0 <- colMeans(a)
    poly_mmds(pair_sums(a, a, TRUE, c0, "poly")$sums,
              pair_sums(b, b, TRUE, c0, "poly")$sums,
              pair_sums(a, b, FALSE, c0, "poly")$sums, s, s)
  }, double(3)))
}

#' The default bandwidth of mmd_rbf: the median distance between the
#' pairs of the first min(n, 1000) real rows
#' @noRd
median_bandwidth <- function(x) {
  h <- x[seq_len(min(nrow(x), 1000L)), , drop = FALSE]
  h <- h - rep(colMeans(h), each = nrow(h))
  nh <- rowSums(h^2)
  d2 <- outer(nh, nh, `+`) - 2 * tcrossprod(h)
  stats::median(sqrt(pmax(d2[upper.tri(d2)], 0)))
}

#' Squared distance of each row of `query` to its nearest row of `ref`,
#' from the engine's k-NN radii (k = 1; exact near ties)
#' @noRd
nearest_sq <- function(query, ref) {
  s <- new_split(list(integer(), seq_len(nrow(ref))),
                 list(seq_len(nrow(query)), integer()))
  engine_neighbours(query, ref, s, 1L, "query_y")$query_y[, 1]
}

#' Squared distance of each row of x to its nearest other row (engine's
#' own radii, k = 1, self left out by index)
#' @noRd
own_nearest_sq <- function(x) {
  engine_neighbours(x, x[0, , drop = FALSE],
                    new_split(list(seq_len(nrow(x)), integer())),
                    1L, "own")$own_x[, 1]
}

#' Authenticity (Alaa et al. 2022, as dgm-eval's compute_authpct): y is
#' authentic when its nearest real row x_j (index `j`) has a nearer other
#' real row: own2[j] < ||y - x_j||^2, that distance recomputed exactly
#' from the rows (one pass over the generated rows).
#' @return logical, one per generated row
#' @noRd
authentic_rows <- function(real, generated, j, own2) {
  d1 <- double(nrow(generated))
  for (b in row_blocks(nrow(generated), ncol(generated))) {
    d1[b] <- rowSums((generated[b, , drop = FALSE] -
                        real[j[b], , drop = FALSE])^2)
  }
  own2[j] < d1
}

#' The Mann-Whitney U of a against b (the count of pairs with a < b, ties
#' one half: scipy's U of the first sample, alternative "less"), Z-scored
#' under H0 with Meehan et al.'s continuity correction as dgm-eval:
#' (U - (n m / 2 - 0.5)) / sqrt(n m (n + m + 1) / 12)
#' @noRd
ct_zu <- function(lq, lp) {
  m <- length(lq)
  n <- length(lp)
  rk <- rank(c(lq, lp))
  u <- sum(rk[seq_len(m)]) - m * (m + 1) / 2
  (u - (n * m / 2 - 0.5)) / sqrt(n * m * (n + m + 1) / 12)
}

#' The data-copying statistic C_T of Meehan, Chaudhuri and Dasgupta
#' (2020) as dgm-eval computes it (SPEC.md section 8): PCA to 64
#' components fitted on the training rows when d > 64, `cells` k-means
#' cells on them (stats::kmeans, Lloyd, 10 starts), per cell the Z-scored U of
#' the generated rows' distances to their nearest training row of the
#' cell against the held-out rows', combined over the cells holding more
#' than 20 generated rows (tau = 20 / m), weighted by their share of the
#' held-out rows. `mom` and `eig`: the training rows' set_moments() and
#' the eigendecomposition of their covariance, when already at hand.
#' `order`: the training rows' canonical order (of the rows as given, before
#' the projection), over which k-means draws its starts.
#' @return list(value, cells = tibble of the cells)
#' @noRd
ct_value <- function(train, test, gen, cells = 3L, components = 64L,
                     mom = NULL, eig = NULL, order = canonical_order(train)) {
  force(order)
  if (ncol(train) > components) {
    # the leading eigenvectors of the training covariance (d x d; no SVD
    # of the n x d rows), as scikit-learn's PCA up to their signs
    if (is.null(mom)) mom <- set_moments(train)
    if (is.null(eig)) eig <- eigen(mom$cov, symmetric = TRUE)
    mu <- mom$mean
    v <- eig$vectors[, seq_len(components), drop = FALSE]
    proj <- function(z) {
      out <- matrix(0, nrow(z), components)
      for (b in row_blocks(nrow(z), ncol(z))) {
        out[b, ] <- centred_rows(z, b, mu) %*% v
      }
      out
    }
    train <- proj(train)
    test <- proj(test)
    gen <- proj(gen)
  }
  # (Lloyd's iterations stop at 300, as scikit-learn's: that they did
  # before the centres settled is not a problem of the user's data)
  # (its random starts drawn over the rows in canonical order: whatever
  # order they came in)
  ord <- order
  km <- withCallingHandlers(
    stats::kmeans(train[ord, , drop = FALSE],
                  centers = cells, nstart = 10L, iter.max = 300L,
                  algorithm = "Lloyd"),
    warning = function(w) {
      if (grepl("did not converge", conditionMessage(w), fixed = TRUE)) {
        invokeRestart("muffleWarning")
      }
    })
  assign <- function(z) {
    d2 <- -2 * tcrossprod(z, km$centers) +
      rep(rowSums(km$centers^2), each = nrow(z))
    max.col(-d2, ties.method = "first")
  }
  # (the cells of the training rows in their own order)
  ct <- integer(nrow(train))
  ct[ord] <- km$cluster
  cp <- assign(test)
  cq <- assign(gen)
  n <- as.double(nrow(test))
  m <- as.double(nrow(gen))
  z <- vapply(seq_len(cells), function(c) {
    tq <- gen[cq == c, , drop = FALSE]
    tp <- test[cp == c, , drop = FALSE]
    tt <- train[ct == c, , drop = FALSE]
    if (!nrow(tq) || !nrow(tp) || !nrow(tt)) return(0)
    ct_zu(sqrt(nearest_sq(tq, tt)), sqrt(nearest_sq(tp, tt)))
  }, double(1))
  share_q <- tabulate(cq, cells) / m
  share_p <- tabulate(cp, cells) / n
  keep <- share_q > 20 / m
  value <- if (any(keep) && sum(share_p[keep]) > 0) {
    sum(share_p[keep] * z[keep]) / sum(share_p[keep])
  } else {
    NA_real_
  }
  list(value = value,
       cells = tibble::tibble(cell = seq_len(cells),
                              train = tabulate(ct, cells),
                              held_out = tabulate(cp, cells),
                              generated = tabulate(cq, cells),
                              z = z, used = keep))
}
