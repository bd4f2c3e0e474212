# The spectral family of prd_curve() (SPEC.md section 7): the Gaussian
# log-likelihood ratio restricted to the few directions in which the two
# sets' covariances differ beyond their sampling noise. The directions are
# the generalised eigenvectors of the fit rows' covariances (S_Y v = l S_X
# v, the discriminant directions of two covariances, Fukunaga 1990, chapter
# 10); those whose l leaves the bulk that two sample covariances of one
# Gaussian law would give are kept. That bulk is Wachter's (1980) law of
# the eigenvalues of S_Y S_X^-1 (the F matrix), whose edges are closed form
# in d / n_X and d / n_Y. A one-direction change of spread (a truncated
# slab, one direction widened or narrowed), which the quadratic family's
# shrinkage averages away and its d^2 / 2 other coefficients bury in noise,
# is read from one direction; with no such direction the score is constant
# and the curve the ceiling min(1, lambda).

#' The factor by which a generalised eigenvalue must pass the bulk's edge
#' (above the upper edge, below the lower) to be kept: two Gaussian sample
#' covariances of 4,750 rows gave their extreme eigenvalues within 1.02 of
#' the edges at d = 16-512 (10 draws each).
#' @noRd
spectral_margin <- 1.1

#' Most directions kept (those of the largest |log l| first)
#' @noRd
spectral_max_directions <- 32L

#' The largest d at which the spectral family joins the default's families
#' (a fold's whitening and eigenvalues grow as d^3: the family added about
#' 0.06 s to the default at 5,000 x 512, whose eigenvalues alone take a
#' second a fold at 2,048), and the fewest rows of a set per column there:
#' with fewer, the bulk is so wide (y = d / n near 1/8 and above) that only
#' spreads changed more than threefold leave it, and data far from Gaussian
#' push sample eigenvalues past its Gaussian edges: on the digits
#' class-subset experiment (64 columns, 90-900 rows a set) the default's
#' mean IoU was 0.933 with the family, 0.936 without
#' (bench/tightest-choice.R).
#' @noRd
spectral_default_dim <- 512L
spectral_default_rows_per_dim <- 8

#' Rows (at most) and seed of the self-null test of the default's
#' membership (spectral_self_null()).
#' @noRd
spectral_null_rows <- 8000L
spectral_null_seed <- 20261130L

#' Whether the family keeps no direction between two random halves of the
#' real rows (at most spectral_null_rows of them, drawn under a fixed seed;
#' the caller's RNG state is left as it was), two samples of one law: the
#' default takes the family only then. Wachter's edges hold for laws with
#' four moments (independent Laplace or Student t(5) coordinates: the
#' extreme eigenvalues of two samples within 1.03 of the edges at d = 64
#' and 256, 3,000 rows a set); with fewer the extremes run far past them
#' (t(3) coordinates: the largest 3 to 13 times the upper edge), and the
#' family would keep spurious directions between any two sets of such
#' data. 0.1-0.2 s at 5,000 x 512. Too few rows (fewer than 2 a column
#' in a half), values not finite or a covariance that cannot be factored:
#' FALSE.
#' @noRd
spectral_self_null <- function(real) {
  n <- nrow(real)
  d <- ncol(real)
  if (n < 4L * d + 4L || d < 1L) return(FALSE)
  withr::local_seed(spectral_null_seed)
  rows <- if (n > spectral_null_rows) sample.int(n, spectral_null_rows) else seq_len(n)
  h <- lapply(random_halves(length(rows)), function(i) rows[i])
  if (!is.double(real)) storage.mode(real) <- "double"
  # (each half's rows centred, divided by the largest value first: no
  # moment overflows, and the eigenvalues do not move)
  # (the largest magnitude without range()'s copy of the rows)
  big <- max(-min(real), max(real))
  if (!is.finite(big) || !(big > 0)) return(FALSE)
  S <- lapply(h, function(r) {
    A <- .Call(ffi_centre, real, .Call(ffi_col_means, real, r), r) / big
    crossprod(A) / length(r)
  })
  p <- list(dual = FALSE, d = d, nx = length(h[[1]]), ny = length(h[[2]]),
            Sx = S[[1]], Sy = S[[2]],
            tr = c(x = sum(diag(S[[1]])), y = sum(diag(S[[2]]))))
  f <- tryCatch(fit_spectral(p), error = function(e) NULL)
  !is.null(f) && identical(f$settings$directions, 0L)
}

#' The warning (prdcurve_warning_small_sample) of a spectral family asked
#' for on sets of fewer than 2 d rows (`rows`: the fewest of any set): its
#' fits see at most those rows, and at d / n = 1/2 the bulk spans 0.07 to
#' 14 (spectral_edges()), so only a spread changed more than tenfold can
#' leave it; at d >= n none (the curve is the ceiling min(1, lambda)).
#' @noRd
spectral_rows_warning <- function(d, rows) {
  if (d * 2 <= rows) return(invisible())
  prd_warn(c(
    "The {.val spectral} family sees at most {rows} row{?s} of a set in {d} column{?s}.",
    "i" = "At fewer than 2 rows a column only a spread changed more than tenfold leaves the noise of two samples' covariances (none at fewer than 1), and its curve is the ceiling min(1, lambda) without one.",
    "i" = "Use more rows, or fewer columns (a projection)."
  ), "small_sample")
}

#' The edges of the bulk of the eigenvalues of S_Y S_X^-1 for two sample
#' covariances of one Gaussian law from n_X and n_Y rows in d dimensions
#' (Wachter 1980; Bai and Silverstein 2010, section 4.4): with y_X = d /
#' n_X < 1, y_Y = d / n_Y and h = sqrt(y_X + y_Y - y_X y_Y), ((1 -+ h) /
#' (1 - y_X))^2.
#' @noRd
spectral_edges <- function(d, nx, ny) {
  yx <- d / nx
  yy <- d / ny
  h <- sqrt(yx + yy - yx * yy)
  c(lower = ((1 - h) / (1 - yx))^2, upper = ((1 + h) / (1 - yx))^2)
}

#' Fit the spectral family from the covariance parts p (cov_parts(), or a
#' fold's moment_parts()): the generalised eigenvalues l and vectors v of
#' (S_Y, S_X), v' S_X v = 1, kept where l > spectral_margin times the upper
#' edge or l < the lower edge / spectral_margin (at most
#' spectral_max_directions); score log N(w; v' mu_Y, l) - log N(w; v'
#' mu_X, 1) summed over the kept directions, w = v' z. With d at least
#' either set's fit rows, or no direction kept, the score is 0 (the
#' ceiling). `fit_rows`: NULL, or a function of the set (1 real, 2
#' generated) giving list(X = its rows, rows = the fit rows' positions in X,
#' NULL: every row), for spectral_refine().
#' @noRd
fit_spectral <- function(p, call = rlang::caller_env(), fit_rows = NULL) {
  d <- p$d
  none <- list(score = function(Z, rows = NULL) {
    numeric(if (is.null(rows)) nrow(Z) else length(rows))
  }, settings = list(directions = 0L, refined = 0L))
  if (p$dual || d >= min(p$nx, p$ny)) return(none)
  R <- .Call(ffi_cov_factor, p$Sx, p$Sy, 1, 0, cov_ridge(p, 1, 0, 0))
  if (is.null(R)) cov_fail(call)
  # M = R^-T S_Y R^-1 (symmetric, LAPACK's dsygst); its eigenvectors e
  # give v = R^-1 e
  M <- .Call(ffi_whiten, R, p$Sy)
  edge <- spectral_edges(d, p$nx, p$ny)
  beyond <- function(l, slack = 1) {
    which((l > edge[["upper"]] * spectral_margin / slack |
             l < edge[["lower"]] / spectral_margin * slack) & l > 0)
  }
  # the eigenvalues alone first (a third of the time at d = 512): the
  # vectors only where one passes, within a slack of 1e-3 (the kept
  # directions are then chosen on the full decomposition's values)
  if (!length(beyond(eigen(M, symmetric = TRUE, only.values = TRUE)$values,
                     1.001))) {
    return(none)
  }
  e <- eigen(M, symmetric = TRUE)
  rm(M)
  l <- e$values
  out <- beyond(l)
  if (!length(out)) return(none)
  out <- out[order(-abs(log(l[out])))][seq_len(min(length(out),
                                                   spectral_max_directions))]
  V <- backsolve(R, e$vectors[, out, drop = FALSE])
  l <- l[out]
  refined <- 0L
  side <- numeric(length(l))
  if (!is.null(fit_rows)) {
    r <- spectral_refine(V, l, R, p, fit_rows)
    V <- r$V
    l <- r$l
    side <- r$side
    refined <- r$refined
  }
  list(score = spectral_score(V, l, p$mx, drop(crossprod(V, p$my - p$mx)), side),
       settings = list(directions = length(out), refined = refined))
}

#' The spectral family's score of the rows `rows` of Z (NULL: every row),
#' read in place: with w_j = v_j' (z - mu_X) and the means' difference
#' along v_j, shift_j, sum_j (w_j^2 - (w_j - shift_j)^2 / l_j - log l_j) /
#' 2; a function that keeps only the directions V (columns), l, mu_X and
#' the shifts. `side`: 0 for each direction, or for the edge of a
#' one-sided truncation (spectral_refine()) +1 / -1 where the generated
#' law lies above / below it: there w_j is first capped at the peak of
#' its term (l_j < 1), shift_j / (1 - l_j), from above / below, so that
#' the term rises monotonically away from the edge (the log density ratio
#' of a half-space is a step) instead of falling again in the far tail.
#' @noRd
spectral_score <- function(V, l, mx, shift, side = numeric(length(l))) {
  force(V)
  force(l)
  force(mx)
  force(shift)
  peak <- ifelse(side != 0 & l < 1, shift / (1 - l), NA_real_)
  function(Z, rows = NULL) {
    if (!is.double(Z)) storage.mode(Z) <- "double"
    # every direction's projection in one pass over the rows (the stacked
    # family's centred product)
    W <- .Call(ffi_centred_product, Z, mx, V,
               if (!is.null(rows)) as.integer(rows))$P
    s <- numeric(nrow(W))
    for (j in seq_along(l)) {
      w <- W[, j]
      if (!is.na(peak[j])) w <- if (side[j] > 0) pmin(w, peak[j]) else pmax(w, peak[j])
      s <- s + 0.5 * (w^2 - (w - shift[j])^2 / l[j] - log(l[j]))
    }
    s
  }
}

#' The power p of the thinnest-slab search (spectral_refine()): on one draw
#' of trunc_slab_0.7 (4,500 fit rows a set) the cosine with the slab's
#' normal rose from 0.977 to 0.989 / 0.994 / 0.994 at p = 4 / 8 / 16 (d =
#' 256) and from 0.941 to 0.961 / 0.967 / 0.967 (d = 512).
#' @noRd
spectral_power <- 8

#' How far (in standard errors, sqrt(24 / n_X + 24 / n_Y)) the kurtosis of
#' the generated fit rows along the narrowest direction must fall below the
#' real rows' for spectral_refine() to search: along a slab's normal the
#' generated rows are a truncated law (kurtosis 2.0 for the slab of mass
#' 0.7, against a Gaussian's 3; 2.0 / 2.2 / 2.5 along the spectral
#' direction at d = 64 / 256 / 512, 4,500 rows a set), along a narrowed
#' Gaussian's 3 +- 0.07.
#' @noRd
spectral_kurtosis_z <- 5

#' How far (in standard errors, sqrt(6 / n_X + 6 / n_Y)) the skewness of
#' the generated fit rows along the narrowest direction must differ from
#' the real rows' for spectral_refine() to search for a one-sided edge,
#' where the kurtosis test did not call for the slab: P within a half-space
#' (u . x >= 0, mass 0.5) gives a half-normal along u, skewness 1.0; along
#' the spectral direction, 4,500 rows a set, three draws, the gap was 18 /
#' 14 / 10-12 standard errors at d = 64 / 256 / 512, for the suite's
#' half-space of mass 0.6 15-16 / 12-13 / 6-8, for a direction narrowed to
#' 0.6 of its spread 0-1.5.
#' @noRd
spectral_skew_z <- 5

#' Most steps of the search (Barzilai-Borwein steps reach the descent's
#' end within 60 at d <= 512: 0.05 s at d = 256, 0.1 s at 512, 4,500 rows)
#' @noRd
spectral_refine_steps <- 60L

#' A thinnest-slab search along the narrowest kept direction of the
#' spectral family (that of least l, when l < 1): where the generated fit
#' rows along it are flatter than the real ones (kurtosis lower by
#' spectral_kurtosis_z standard errors: the shape of a truncation), the
#' direction v (v' S_X v = 1) is moved to a local minimum of log mean |v'
#' (y - mu_Y)|^p / p over the generated fit rows y (p = spectral_power;
#' the generated rows' L^p width, which for large p is the width of the
#' thinnest slab that holds them), by gradient descent on the sphere of e =
#' R v (R' R = S_X) with Barzilai-Borwein steps, keeping the best point
#' seen. Where instead their skewness differs from the real rows' by
#' spectral_skew_z standard errors (the shape of a one-sided truncation, P
#' within a half-space), the same search minimises the L^p extent of the
#' side opposite the skew, mean (-s v' (y - mu_Y))_+^p, s the sign of the
#' skewness gap: the edge of a half-space. Its l becomes v' S_Y v / v' S_X
#' v. The eigenvector minimises the second moment, the L^2 width, whose estimate is noisier for a law with
#' a sharp edge: on trunc_slab_0.7 with 4,500 fit rows a set the cosine
#' with the slab's normal rose from 0.992 to 0.999 (d = 64), 0.977 to 0.994
#' (256) and 0.941 to 0.967 (512); bench/results.md, "The slab's
#' direction". Returns list(V, l, side (0, or for the edge's direction
#' +1 / -1: spectral_score()), refined = 0 or 1).
#' @noRd
spectral_refine <- function(V, l, R, p, fit_rows) {
  keep <- list(V = V, l = l, side = numeric(length(l)), refined = 0L)
  j <- which.min(l)
  if (!(l[j] < 1)) return(keep)
  # the fit rows along v, centred, read in place (spectral_score()'s
  # product)
  along <- function(j, m, v) {
    s <- fit_rows(j)
    X <- s$X
    if (!is.double(X)) storage.mode(X) <- "double"
    drop(.Call(ffi_centred_product, X, m, cbind(v),
               if (!is.null(s$rows)) as.integer(s$rows))$P)
  }
  # standardised moment k of z (scaled by the largest |z|: no overflow)
  moment <- function(z, k) {
    z <- z - mean(z)
    s <- max(abs(z))
    if (!(s > 0)) return(NA_real_)
    z <- z / s
    mean(z^k) / mean(z^2)^(k / 2)
  }
  v <- V[, j]
  zx <- along(1L, p$mx, v)
  zy <- along(2L, p$my, v)
  nn <- 1 / length(zx) + 1 / length(zy)
  # side 0: the slab (both sides); +1 / -1: the lower / upper edge
  side <- if (isTRUE(moment(zx, 4) - moment(zy, 4) > spectral_kurtosis_z * sqrt(24 * nn))) {
    0
  } else {
    gap <- moment(zy, 3) - moment(zx, 3)
    if (!isTRUE(abs(gap) > spectral_skew_z * sqrt(6 * nn))) return(keep)
    sign(gap)
  }
  # the search's products read the generated fit rows many times: one copy
  s <- fit_rows(2L)
  Y <- if (is.null(s$rows)) s$X else s$X[s$rows, , drop = FALSE]
  rm(s)
  if (!is.double(Y)) storage.mode(Y) <- "double"
  proj <- function(A, m, v) drop(A %*% v) - sum(m * v)
  pw <- spectral_power
  # objective and its gradient in e = R v, each from one product with the
  # rows and one with their transpose (scaled by the largest |z|: no
  # overflow of |z|^p)
  at <- function(e) {
    v <- backsolve(R, e)
    z <- proj(Y, p$my, v)
    # the extent measured, and its derivative in z
    if (side == 0) {
      a <- abs(z)
      dz <- sign(z)
    } else {
      a <- pmax(-side * z, 0)
      dz <- -side
    }
    s <- max(a)
    if (!is.finite(s) || !(s > 0)) return(NULL)
    a <- a / s
    t <- sum(a^pw)
    u <- a^(pw - 1) * dz / (s * t)
    g <- drop(crossprod(Y, u)) - p$my * sum(u)
    g <- backsolve(R, g, transpose = TRUE)
    list(f = (log(t / length(z)) / pw) + log(s), g = g - sum(g * e) * e)
  }
  e <- drop(R %*% v)
  e <- e / sqrt(sum(e^2))
  cur <- at(e)
  if (is.null(cur)) return(keep)
  best <- list(e = e, f = cur$f)
  step <- 1
  for (it in seq_len(spectral_refine_steps)) {
    e1 <- e - step * cur$g
    e1 <- e1 / sqrt(sum(e1^2))
    nxt <- at(e1)
    if (is.null(nxt)) break
    if (nxt$f < best$f) best <- list(e = e1, f = nxt$f)
    ds <- e1 - e
    dg <- nxt$g - cur$g
    step <- abs(sum(ds * ds) / sum(ds * dg))
    e <- e1
    cur <- nxt
    if (!is.finite(step) || sqrt(sum(ds^2)) < 1e-9) break
  }
  v <- backsolve(R, best$e)
  sx <- sum(v * (p$Sx %*% v))
  sy <- sum(v * (p$Sy %*% v))
  if (!(sx > 0) || !(sy > 0)) return(keep)
  V[, j] <- v / sqrt(sx)
  l[j] <- sy / sx
  sides <- numeric(length(l))
  sides[j] <- side
  list(V = V, l = l, side = sides, refined = 1L)
}
