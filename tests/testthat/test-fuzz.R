# Seeded fuzz test of every exported function (issue 10): hostile inputs
# (NA/NaN/Inf, empty, one row, one column, character and factor columns,
# huge and tiny magnitudes, duplicated and identical rows, k at and past its
# limits, bad splits, bad options). Every call must end in one of:
#
# * an error inheriting from `prdcurve_error` (or an `rlang_error` raised by
#   rlang's own argument checks, such as `rlang::arg_match()`), whose
#   message has no stray " ." at the end of a line;
# * a result whose precision and recall (curves) or value (metrics) are
#   finite and, where bounded, in [0, 1].
#
# Warnings must be classed (`prdcurve_warning`). A call may not take more
# than 10 s (a hang); a crash ends the test run. Sizes are small: the whole
# file runs in a few seconds.

fuzz_seed <- 20250610
set.seed(fuzz_seed)

# the harness (fuzz_case(), the *_problem() checkers, the hostile sets) is
# in helper-fuzz.R, shared with bench/fuzz.R

cases <- list()
add <- function(fn, label, f, check = function(x) NULL, warned_ok = FALSE) {
  cases[[length(cases) + 1L]] <<- list(fn = fn, label = label, f = f,
                                       check = check, warned_ok = warned_ok)
}

# ---- inputs -----------------------------------------------------------------

n0 <- 40L
X <- matrix(rnorm(n0 * 3), n0, 3)
Y <- matrix(rnorm(n0 * 3, 0.7), n0, 3)
# one-sided variants (the other set stays a valid 40 x 3 matrix), and both
# sets transformed alike
bad_sets <- fuzz_bad_sets(X)
pair_sets <- fuzz_pair_sets(X, Y)
sample_variants <- c(
  lapply(bad_sets, function(s) list(s, Y)),
  stats::setNames(lapply(bad_sets, function(s) list(X, s)),
                  paste("generated", names(bad_sets))),
  pair_sets
)
names(sample_variants)[seq_along(bad_sets)] <- paste("real", names(bad_sets))
# prd_curve() gets every real-side and paired variant; the other functions
# share its validation, so they get a core subset (the file must run in
# seconds)
core <- c(
  paste("real", c("NA", "Inf", "0 rows", "NULL", "one row", "one column",
                  "a vector", "character column", "factor column",
                  "a dist object", "huge 1e150", "huge 1e300", "tiny 1e-300",
                  "duplicated rows", "all rows identical", "integer matrix",
                  "data frame")),
  paste("generated", c("NA", "0 rows", "one row", "one column",
                       "factor column", "huge 1e300", "tiny 1e-300",
                       "all rows identical", "duplicated rows")),
  c("both one column", "both two rows", "both huge 1e99", "both tiny 1e-99",
    "identical sets", "generated collapsed", "unequal sizes",
    "different columns")
)
stopifnot(all(core %in% names(sample_variants)))
small <- core[c(1:3, 5:8, 11:12, 14:15, 18:20, 24, 27:31)]
bad_counts <- list(0, -1, NA, NaN, 2.5, "a", Inf, 1e10, 3e9, integer(0),
                   TRUE, list(1))
few_counts <- list(0, NA, 2.5, "a", 3e9, integer(0))
count_label <- function(v) {
  if (is.list(v)) return("list(1)")
  if (!length(v)) return(paste0(class(v), "(0)"))
  paste(format(v), collapse = ",")
}
bad_splits <- list(-1, 1, NA, "a", list(real = 0), 1e-300, 0.99, Inf,
                   c(0.1, 0.2), NULL, list(real = 1:3),
                   list(real = c(1, 1), generated = 1:2),
                   list(real = n0 + 1, generated = 1),
                   list(real = 1:39, generated = 1:3),
                   list(real = 1:3, generated = 1:3), 0, 0.5)
split_label <- function(v) {
  if (is.list(v)) return(paste(deparse(v), collapse = ""))
  if (is.null(v)) return("NULL")
  paste(format(v), collapse = ",")
}

curve_ok <- function(x) curve_problem(x)

# ---- prd_curve ------------------------------------------------------------------

curve_sets <- union(c(paste("real", names(bad_sets)), names(pair_sets)), core)
for (nm in curve_sets) local({
  s <- sample_variants[[nm]]
  add("prd_curve", nm, function()
    prd_curve(s[[1]], s[[2]], split = 0.5, angles = 51, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
})
# k: the fit sets have 20 rows (split 0.5 of 40): 1 <= k <= 19
for (k in c(bad_counts, list(1, 19, 20, c(3, 5)))) local({
  kk <- k
  add("prd_curve", paste("k =", count_label(kk)), function()
    prd_curve(X, Y, k = kk, angles = 51, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
})
for (sp in bad_splits) local({
  ss <- sp
  add("prd_curve", paste("split =", split_label(ss)), function()
    prd_curve(X, Y, split = ss, angles = 51, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
})
for (a in list(2, 3, 1e7, NA, 2.5, "a", 1e6 + 1)) local({
  aa <- a
  add("prd_curve", paste("angles =", count_label(aa)), function()
    prd_curve(X, Y, method = "knn", angles = aa), curve_ok)
})
for (m in list("foo", character(0), NA_character_, c("knn", "knn"), 1,
               c("kde", "coverage"))) local({
  mm <- m
  add("prd_curve", paste("method =", count_label(mm)), function()
    prd_curve(X, Y, method = mm, angles = 51), curve_ok)
})
for (b in list(0, -1, 1e300, 1e-300, c(1, 2, 3), "a", NA, c(0.5, 2), 1e100))
  local({
    bb <- b
    add("prd_curve", paste("bandwidth =", count_label(bb)), function()
      prd_curve(X, Y, method = "kde", bandwidth = bb, angles = 51), curve_ok)
  })
add("prd_curve", "bandwidth with method knn", function()
  prd_curve(X, Y, method = "knn", bandwidth = 1, angles = 51), curve_ok)
for (cl in list(NA, "yes", c(TRUE, FALSE), FALSE)) local({
  cc <- cl
  add("prd_curve", paste("closed =", count_label(cc)), function()
    prd_curve(X, Y, closed = cc, angles = 51, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
})

# ---- manifold_metrics -------------------------------------------------------------

manifold_ok <- function(x) metrics_problem(x, unbounded = "density")
for (nm in core) local({
  s <- sample_variants[[nm]]
  add("manifold_metrics", nm, function()
    manifold_metrics(s[[1]], s[[2]], k = 3), manifold_ok)
})
# split = 0: 40 rows, 1 <= k <= 39
for (k in c(few_counts, list(1, 39, 40, c(3, 39)))) local({
  kk <- k
  add("manifold_metrics", paste("k =", count_label(kk)), function()
    manifold_metrics(X, Y, k = kk), manifold_ok)
})
for (sp in bad_splits[c(1:5, 12, 14, 16)]) local({
  ss <- sp
  add("manifold_metrics", paste("split =", split_label(ss)), function()
    manifold_metrics(X, Y, k = 2, split = ss), manifold_ok)
})
for (v in list(0, 3e9, NA, 40)) local({
  vv <- v
  add("manifold_metrics", paste("k_prime =", count_label(vv)), function()
    manifold_metrics(X, Y, metrics = c("prc_precision", "prc_recall"),
                     k_prime = vv), manifold_ok)
})
for (v in list(0, -1, 1e300, 1e-300, NA)) local({
  vv <- v
  add("manifold_metrics", paste("ppr_scale =", count_label(vv)), function()
    manifold_metrics(X, Y, metrics = c("p_precision", "p_recall"),
                     ppr_scale = vv), manifold_ok)
})
for (v in list(0, 39, 40, 1e9)) local({
  vv <- v
  add("manifold_metrics", paste("ppr_k =", count_label(vv)), function()
    manifold_metrics(X, Y, metrics = "p_precision", ppr_k = vv), manifold_ok)
})
add("manifold_metrics", "tiny sets with default ppr_k", function()
  manifold_metrics(X[1:4, ], Y[1:4, ], k = 1), manifold_ok)
add("manifold_metrics", "metrics = foo", function()
  manifold_metrics(X, Y, metrics = "foo"), manifold_ok)
add("manifold_metrics", "per_sample = NA", function()
  manifold_metrics(X, Y, per_sample = NA), manifold_ok)
add("manifold_metrics", "per_sample = TRUE", function()
  manifold_metrics(X, Y, per_sample = TRUE), manifold_ok)
add("manifold_metrics", "p_precision at offset 1e8", function()
  manifold_metrics(X + 1e8, Y + 1e8, metrics = c("p_precision", "p_recall")),
  manifold_ok)

# ---- entropy ----------------------------------------------------------------------

entropy_ok <- function(x) metrics_problem(x, unbounded = c("pce", "rce", "re"))
vec_ok <- function(x) {
  if (!is.numeric(x) || !length(x) || !all(is.finite(x))) {
    return(paste("not finite:", paste(format(x), collapse = ", ")))
  }
  NULL
}
for (nm in core) local({
  s <- sample_variants[[nm]]
  add("entropy_metrics", nm, function() entropy_metrics(s[[1]], s[[2]], k = 3),
      entropy_ok, warned_ok = TRUE)
})
for (nm in small) local({
  s <- sample_variants[[nm]]
  add("knn_cross_entropy", nm, function()
    knn_cross_entropy(s[[1]], s[[2]], k = 3), vec_ok, warned_ok = TRUE)
  if (startsWith(nm, "real ")) {
    add("knn_entropy", nm, function() knn_entropy(s[[1]], k = 3), vec_ok,
        warned_ok = TRUE)
  }
})
for (k in c(few_counts, list(1, 39, 40))) local({
  kk <- k
  add("entropy_metrics", paste("k =", count_label(kk)), function()
    entropy_metrics(X, Y, k = kk), entropy_ok, warned_ok = TRUE)
  add("knn_entropy", paste("k =", count_label(kk)), function()
    knn_entropy(X, k = kk), vec_ok, warned_ok = TRUE)
  add("knn_cross_entropy", paste("k =", count_label(kk)), function()
    knn_cross_entropy(X, Y, k = kk), vec_ok, warned_ok = TRUE)
})
add("knn_cross_entropy", "k = 41 (n_Y + 1)", function()
  knn_cross_entropy(X, Y, k = 41), vec_ok, warned_ok = TRUE)
add("entropy_metrics", "per_sample = NA", function()
  entropy_metrics(X, Y, per_sample = NA), entropy_ok)
add("entropy_metrics", "per_sample = TRUE", function()
  entropy_metrics(X, Y, per_sample = TRUE), entropy_ok)

# ---- pmse_stats ------------------------------------------------------------------

pmse_ok <- function(x) metrics_problem(x, unbounded = "s_pmse")
for (nm in core) local({
  s <- sample_variants[[nm]]
  add("pmse_stats", nm, function() pmse_stats(s[[1]], s[[2]], maxorder = 1),
      pmse_ok, warned_ok = TRUE)
})
for (mo in list(-1, NA, 2.5, "a", 1e9, integer(0), c(0, 1), 0, 2)) local({
  mm <- mo
  add("pmse_stats", paste("maxorder =", count_label(mm)), function()
    pmse_stats(X, Y, maxorder = mm), pmse_ok)
})

# ---- embedding_metrics -------------------------------------------------------------

emb_all <- c("fd", "fd_inf", "kid", "mmd_rbf", "vendi", "authpct", "sw_approx",
             "energy", "ct")
emb_ok <- function(x) metrics_problem(x, unbounded = emb_all, nonfinite_ok = TRUE)
for (nm in core) local({
  s <- sample_variants[[nm]]
  add("embedding_metrics", nm, function()
    embedding_metrics(s[[1]], s[[2]], metrics = c("fd", "kid", "vendi",
                                                  "authpct", "sw_approx",
                                                  "energy")),
      emb_ok, warned_ok = TRUE)
})
emb_args <- list(
  list(metrics = "foo"), list(metrics = character(0)), list(metrics = 1),
  list(subsets = -1), list(subsets = "a"), list(subsets = 1e9),
  list(subset_size = 0), list(subset_size = NA), list(bandwidth = -1),
  list(bandwidth = c(1, 2, 3)), list(bandwidth = Inf),
  list(metrics = "ct"), list(metrics = "ct", held_out = "a"),
  list(metrics = "ct", held_out = matrix(1, 2, 3)),
  list(replicates = -1), list(conf_level = 2), list(classes = 1:3)
)
for (a in emb_args) local({
  args <- a
  add("embedding_metrics", paste(names(args), vapply(args, count_label, ""),
                                 collapse = ", "),
      function() do.call(embedding_metrics, c(list(X, Y), args)), emb_ok,
      warned_ok = TRUE)
})

# ---- prd_discrete --------------------------------------------------------------

weights <- list(c(1e308, 1e308), c(0, 0), c(-1, 1), c(NA, 1), c(Inf, 1),
                numeric(0), "a", list(1, 1), c(5e-324, 5e-324), 1,
                factor(1:2), matrix(1, 1, 2), c(1, 0), c(TRUE, FALSE),
                rep(1, 3), c(1e-320, 1))
for (w in weights) local({
  ww <- w
  add("prd_discrete", paste("p =", count_label(ww)), function()
    prd_discrete(ww, c(1, 1), angles = 21), curve_ok)
  add("prd_discrete", paste("q =", count_label(ww)), function()
    prd_discrete(c(1, 2), ww, angles = 21), curve_ok)
})
for (a in list(2, 3, NA, 1e7, 2.5)) local({
  aa <- a
  add("prd_discrete", paste("angles =", count_label(aa)), function()
    prd_discrete(1, 1, angles = aa), curve_ok)
})

# ---- prd_histogram ---------------------------------------------------------------

for (nm in small) local({
  s <- sample_variants[[nm]]
  add("prd_histogram", nm, function()
    prd_histogram(s[[1]], s[[2]], clusters = 3, runs = 2, angles = 21),
    curve_ok)
})
# 80 distinct pooled rows: 1 <= clusters <= 80
for (k in c(few_counts, list(1, 79, 80, 81, c(2, 3)))) local({
  kk <- k
  add("prd_histogram", paste("clusters =", count_label(kk)), function()
    prd_histogram(X, Y, clusters = kk, runs = 1, nstart = 2, angles = 21),
    curve_ok)
})
for (v in list(0, 1001, 2147483647, NA, 2.5)) local({
  vv <- v
  add("prd_histogram", paste("runs =", count_label(vv)), function()
    prd_histogram(X, Y, clusters = 1, runs = vv, angles = 11), curve_ok)
})
for (v in list(0, 1e9, NA)) local({
  vv <- v
  add("prd_histogram", paste("nstart =", count_label(vv)), function()
    prd_histogram(X, Y, clusters = 2, runs = 1, nstart = vv, angles = 11),
    curve_ok)
})
for (v in list(0, 1, NA, 3e9)) local({
  vv <- v
  add("prd_histogram", paste("iter.max =", count_label(vv)), function()
    prd_histogram(X, Y, clusters = 10, runs = 1, nstart = 1, iter.max = vv,
                  angles = 11), curve_ok)
})

# ---- prd_kde_plugin -----------------------------------------------------------------

for (nm in small) local({
  s <- sample_variants[[nm]]
  add("prd_kde_plugin", nm, function()
    prd_kde_plugin(s[[1]], s[[2]], n_mc = 100, angles = 21), curve_ok)
})
for (b in list(0, -1, 1e300, 1e100, 1e-300, c(1, 2), "a", NA, Inf)) local({
  bb <- b
  add("prd_kde_plugin", paste("bandwidth =", count_label(bb)), function()
    prd_kde_plugin(X, Y, bandwidth = bb, n_mc = 100, angles = 21), curve_ok)
})
for (v in list(9, 10, 2147483647, NA, 2.5, 3e9)) local({
  vv <- v
  add("prd_kde_plugin", paste("n_mc =", count_label(vv)), function()
    prd_kde_plugin(X, Y, bandwidth = 1, n_mc = vv, angles = 21), curve_ok)
})

# ---- prd_scores ---------------------------------------------------------------------

scores <- list(c(NA, 1), NaN, numeric(0), c(Inf, -Inf), Inf, "a", 1e308,
               c(-1e308, 1e308), matrix(1:4, 2), factor(1:3), list(1, 2),
               rep(1, 5), 5e-324, TRUE, c(1, 2, 3))
for (s in scores) local({
  ss <- s
  add("prd_scores", paste("score_real =", count_label(ss)), function()
    prd_scores(ss, c(0, 1, 2), angles = 21), curve_ok)
  add("prd_scores", paste("score_generated =", count_label(ss)), function()
    prd_scores(c(0, 1, 2), ss, angles = 21), curve_ok)
})
for (m in list(NA_character_, 1, c("a", "b"), "")) local({
  mm <- m
  add("prd_scores", paste("method =", count_label(mm)), function()
    prd_scores(1:3, 2:4, method = mm, angles = 21), curve_ok)
})

# ---- prd_truth_gaussian ----------------------------------------------------------------

means <- list(list(0, 1e200), list(1e308, -1e308), list(NA, 1), list(Inf, 0),
              list("a", "b"), list(numeric(0), numeric(0)), list(c(0, 0), 1),
              list(0, 1e-320), list(c(0, 0), c(3e200, 4e200)), list(0, 0),
              list(TRUE, FALSE), list(list(0), list(1)))
for (m in means) local({
  mm <- m
  add("prd_truth_gaussian",
      paste("means", count_label(mm[[1]]), "and", count_label(mm[[2]])),
      function() prd_truth_gaussian(mm[[1]], mm[[2]], angles = 21), curve_ok)
})
covs <- list(0, -1, 1e-320, 1e300, Inf, NA, matrix(1), matrix(NA),
             matrix(c(1, 2, 2, 1), 2), matrix(c(1, 0.5, 0, 1), 2), "a",
             list(), matrix(1, 3, 3), diag(c(1e-320, 1)), c(1, 2),
             diag(c(1e300, 1e-300)))
for (cv in covs) local({
  cc <- cv
  add("prd_truth_gaussian", paste("cov =", paste(deparse(cc), collapse = "")),
      function() prd_truth_gaussian(c(0, 0), c(1, 1), cov = cc, angles = 21),
      curve_ok)
})

# ---- gaussian_mixture and prd_truth ---------------------------------------------------

mix_args <- list(
  "means NA" = list(means = c(0, NA)),
  "means Inf" = list(means = Inf),
  "means character" = list(means = "a"),
  "means numeric(0)" = list(means = numeric(0)),
  "means 0 x 2 matrix" = list(means = matrix(0, 0, 2)),
  "means 1e308" = list(means = c(1e308, -1e308)),
  "means a list" = list(means = list(0)),
  "sd 0" = list(means = rbind(0, 1), sd = 0),
  "sd -1" = list(means = rbind(0, 1), sd = -1),
  "sd 1e-300" = list(means = rbind(0, 1), sd = 1e-300),
  "sd 1e300" = list(means = rbind(0, 1), sd = 1e300),
  "sd NA" = list(means = rbind(0, 1), sd = NA),
  "sd of the wrong length" = list(means = rbind(0, 1), sd = c(1, 2, 3)),
  "weights 1e308" = list(means = rbind(0, 1), weights = c(1e308, 1e308)),
  "weights 0 0" = list(means = rbind(0, 1), weights = c(0, 0)),
  "weights -1" = list(means = rbind(0, 1), weights = c(-1, 2)),
  "weights NA" = list(means = rbind(0, 1), weights = c(NA, 1)),
  "weights of the wrong length" = list(means = rbind(0, 1), weights = 1),
  "weights 1e-320" = list(means = rbind(0, 1), weights = c(1e-320, 1e-320)),
  "cov not PD" = list(means = c(0, 0), cov = matrix(c(1, 2, 2, 1), 2)),
  "cov tiny" = list(means = c(0, 0), cov = diag(2) * 1e-300),
  "cov list of the wrong length" = list(means = rbind(0, 1),
                                        cov = list(matrix(1))),
  "cov character" = list(means = 0, cov = "a"),
  "cov 1 x 1" = list(means = 0, cov = matrix(2))
)
for (nm in names(mix_args)) local({
  a <- mix_args[[nm]]
  add("gaussian_mixture", nm, function() do.call(gaussian_mixture, a),
      mixture_problem)
})
mix1 <- gaussian_mixture(0)
for (v in list(-1, NA, 2.5, "a", 2147483647, 3e9, 1e8 + 1)) local({
  vv <- v
  add("gaussian_mixture", paste("$sample(", count_label(vv), ")"), function()
    mix1$sample(vv), function(x) NULL)
})
for (z in list(matrix(1e200), c(NA, 0), matrix(0, 1, 2), "a",
               matrix(numeric(0), 0, 1), 1e308, -Inf)) local({
  zz <- z
  add("gaussian_mixture",
      paste("$log_density(", paste(deparse(zz), collapse = ""), ")"),
      function() mix1$log_density(zz), function(x) {
        if (!is.numeric(x) || any(is.nan(x)) || any(x == Inf, na.rm = TRUE)) {
          return(paste("log-density:", format(x)))
        }
        NULL
      })
})
p_mix <- gaussian_mixture(rbind(0, 3), weights = c(0.5, 0.5))
q_mix <- gaussian_mixture(rbind(0, 3), weights = c(1, 0))
lp <- function(x) dnorm(x[, 1], log = TRUE)
sp <- function(n) matrix(rnorm(n), n)
truth_args <- list(
  "mixtures" = list(p_mix, q_mix, n = 200),
  "mixture with itself" = list(p_mix, p_mix, n = 200),
  "not functions" = list("a", q_mix),
  "no samplers" = list(lp, lp),
  "log-density NaN" = list(function(x) rep(NaN, nrow(x)), lp, sp, sp, n = 50),
  "log-density too short" = list(function(x) 0, lp, sp, sp, n = 50),
  "log-density character" = list(function(x) rep("a", nrow(x)), lp, sp, sp,
                                 n = 50),
  "log-density +Inf" = list(function(x) rep(Inf, nrow(x)), lp, sp, sp, n = 50),
  "both log-densities -Inf" = list(function(x) rep(-Inf, nrow(x)),
                                   function(x) rep(-Inf, nrow(x)), sp, sp,
                                   n = 50),
  "sampler wrong rows" = list(lp, lp, function(n) matrix(0, 1, 1), sp, n = 50),
  "sampler NA" = list(lp, lp, function(n) matrix(NA_real_, n, 1), sp, n = 50),
  "sampler character" = list(lp, lp, function(n) rep("a", n), sp, n = 50),
  "samplers of different dimensions" = list(lp, lp, sp,
                                            function(n) matrix(0, n, 2),
                                            n = 50),
  "n = 9" = list(p_mix, q_mix, n = 9),
  "n = NA" = list(p_mix, q_mix, n = NA),
  "n = c(10, 20)" = list(p_mix, q_mix, n = c(10, 20)),
  "n = 1:3" = list(p_mix, q_mix, n = 1:3),
  "n = 2147483647" = list(p_mix, q_mix, n = 2147483647),
  "n = 3e9" = list(p_mix, q_mix, n = 3e9),
  "n = a" = list(p_mix, q_mix, n = "a"),
  "angles = 2" = list(p_mix, q_mix, n = 50, angles = 2)
)
for (nm in names(truth_args)) local({
  a <- truth_args[[nm]]
  if (is.null(a$angles)) a$angles <- 21
  add("prd_truth", nm, function() do.call(prd_truth, a), curve_ok)
})

# ---- simulators ----------------------------------------------------------------------

sim_ok <- sim_problem
shifted <- list(
  "n = 1" = list(n = 1), "n = 2" = list(n = 2),
  "n = 2147483647" = list(n = 2147483647), "n = 3e9" = list(n = 3e9),
  "n = NA" = list(n = NA), "n = 2.5" = list(n = 2.5),
  "d = 0" = list(d = 0), "d = 1e9" = list(d = 1e9),
  "shift = 1e300" = list(shift = 1e300), "shift = NA" = list(shift = NA),
  "shift = Inf" = list(shift = Inf), "shift of the wrong length" =
    list(shift = c(1, 2, 3)), "shift = a" = list(shift = "a"),
  "shift = 1e-300" = list(shift = 1e-300),
  "n_generated = 2147483647" = list(n_generated = 2147483647),
  "n_generated = 1" = list(n_generated = 1), "angles = 2" = list(angles = 2)
)
for (nm in names(shifted)) local({
  a <- utils::modifyList(list(n = 20, d = 2, angles = 21), shifted[[nm]])
  add("sim_shifted_gaussians", nm, function()
    do.call(sim_shifted_gaussians, a), sim_ok)
})
mixtures <- list(
  "defaults, d = 2" = list(),
  "n = 2147483647" = list(n = 2147483647), "n = 3e9" = list(n = 3e9),
  "d = 0" = list(d = 0), "sd = 1e-300" = list(sd = 1e-300),
  "sd = 1e300" = list(sd = 1e300), "sd = 0" = list(sd = 0),
  "means 1e308" = list(means = c(1e308, -1e308),
                       weights_real = c(1, 0), weights_generated = c(0, 1)),
  "means NA" = list(means = c(0, NA, 1, 2)),
  "means character" = list(means = letters[1:4]),
  "means a matrix" = list(means = rbind(c(0, 0), c(3, 3)),
                          weights_real = c(1, 1), weights_generated = c(1, 0),
                          truth_n = 200),
  "means a matrix of the wrong width" = list(means = matrix(0, 2, 5)),
  "weights 1e308" = list(weights_real = rep(1e308, 4)),
  "weights all 0" = list(weights_generated = rep(0, 4)),
  "weights of the wrong length" = list(weights_real = c(1, 1)),
  "truth_n = 9" = list(means = rbind(c(0, 0), c(3, 3)),
                       weights_real = c(1, 1), weights_generated = c(1, 0),
                       truth_n = 9),
  "truth_n = 2147483647" = list(means = rbind(c(0, 0), c(3, 3)),
                                weights_real = c(1, 1),
                                weights_generated = c(1, 0),
                                truth_n = 2147483647)
)
for (nm in names(mixtures)) local({
  a <- utils::modifyList(list(n = 20, d = 2, angles = 21), mixtures[[nm]])
  add("sim_gaussian_mixtures", nm, function()
    do.call(sim_gaussian_mixtures, a), sim_ok)
})
spheres <- list(
  "defaults, d = 3" = list(), "radius = 0" = list(radius = 0),
  "radius = 1e-300" = list(radius = 1e-300),
  "radius = 1e300" = list(radius = 1e300), "radius = NA" = list(radius = NA),
  "radius = 1, ball" = list(radius = 1, support = "ball"),
  "support = cube" = list(support = "cube"), "support = NA" = list(support = NA),
  "d = 1" = list(d = 1), "n = 2147483647" = list(n = 2147483647)
)
for (nm in names(spheres)) local({
  a <- utils::modifyList(list(n = 20, d = 3, angles = 21), spheres[[nm]])
  add("sim_spheres", nm, function() do.call(sim_spheres, a), sim_ok)
})

# ---- prd_iou, summary, prd_bind ----------------------------------------------------

good <- prd_truth_gaussian(0, 1, angles = 21)
square <- prd_discrete(1, 1, angles = 21)
origin <- prd_discrete(c(1, 0), c(0, 1), angles = 21)
bad_curve <- function(col, v) {
  cv <- good
  cv[[col]][5] <- v
  cv
}
bad_curves <- list(
  "precision Inf" = bad_curve("precision", Inf),
  "precision NA" = bad_curve("precision", NA),
  "recall -1" = bad_curve("recall", -1),
  "recall 2" = bad_curve("recall", 2),
  "lambda NaN" = bad_curve("lambda", NaN),
  "character precision" = transform(as.data.frame(good),
                                    precision = as.character(precision)),
  "no rows" = good[0, ],
  "one row" = good[1, ],
  "missing columns" = data.frame(a = 1),
  "a list" = list(precision = 1, recall = 1),
  "NULL" = NULL,
  "a number" = 1,
  "origin (zero area)" = origin
)
iou_ok <- function(x) {
  if (!in_unit(x)) return(paste("IoU not finite in [0, 1]:", describe_bad(x)))
  NULL
}
for (nm in names(bad_curves)) local({
  cv <- bad_curves[[nm]]
  add("prd_iou", paste("curve1", nm), function() prd_iou(cv, square), iou_ok)
  add("prd_iou", paste("curve2", nm), function() prd_iou(good, cv), iou_ok)
  # summary() reaches summary.prd_curve() for prd_curve objects only
  if (is.data.frame(cv)) {
    as_curve <- tibble::new_tibble(as.list(cv), class = "prd_curve")
    add("summary.prd_curve", nm, function() summary(as_curve),
        summary_problem)
  }
  add("prd_bind", nm, function() prd_bind(good, other = cv), curve_ok)
})
add("prd_iou", "origin with itself", function() prd_iou(origin, origin), iou_ok)
add("prd_iou", "different methods", function()
  prd_iou(prd_bind(a = good, b = square), prd_bind(c = good, d = square)),
  iou_ok)
for (b in list(1e300, 0, -1, NA, 1e-300, c(1, 2), "a", Inf)) local({
  bb <- b
  add("summary.prd_curve", paste("beta =", count_label(bb)), function()
    summary(good, beta = bb), summary_problem)
  add("summary.prd_curve", paste("epsilon =", count_label(bb)), function()
    summary(good, epsilon = bb), summary_problem)
})
add("summary.prd_curve", "bound curves", function()
  summary(prd_bind(good, square)), summary_problem)
add("prd_bind", "nothing", function() prd_bind(), curve_ok)
add("prd_bind", "the same label twice", function() prd_bind(good, good),
    curve_ok)
add("prd_bind", "a list of curves", function()
  prd_bind(list(a = good, b = square)), curve_ok)
add("prd_bind", "an empty list", function() prd_bind(list()), curve_ok)

# ---- prd_class_subset -----------------------------------------------------------------

cx <- rbind(matrix(rnorm(60), 20) + 0, matrix(rnorm(60), 20) + 5,
            matrix(rnorm(60), 20) + 10)
clab <- rep(1:3, each = 20)
class_ok <- function(x) {
  if (!is.list(x)) return("not a list")
  curve_problem(x$curves, "curves") %||%
    (if (!in_unit(x$summary$iou)) {
      paste("summary$iou not finite in [0, 1]:", describe_bad(x$summary$iou))
    })
}
class_args <- list(
  "valid" = list(),
  "labels NA" = list(labels = replace(clab, 4, NA)),
  "labels too short" = list(labels = clab[-1]),
  "labels factor" = list(labels = factor(clab)),
  "labels character" = list(labels = letters[clab]),
  "labels a list" = list(labels = as.list(clab)),
  "one class" = list(labels = rep(1, 60), q = 1),
  "real_classes empty" = list(real_classes = integer(0)),
  "real_classes unknown" = list(real_classes = 99),
  "real_classes NA" = list(real_classes = NA),
  "q empty" = list(q = integer(0)), "q = 0" = list(q = 0),
  "q = 4" = list(q = 4), "q = NA" = list(q = NA), "q = a" = list(q = "a"),
  "q = 1e10" = list(q = 1e10), "q repeated" = list(q = c(1, 1)),
  "q a list" = list(q = list(1, 2)),
  "x character" = list(x = matrix("a", 60, 3)),
  "x one column" = list(x = cx[, 1, drop = FALSE]),
  "x with NA" = list(x = set_cell(cx, NA)),
  "split 0.99" = list(split = 0.99), "k = 9" = list(k = 9)
)
for (nm in names(class_args)) local({
  a <- utils::modifyList(list(x = cx, labels = clab, real_classes = 1:2,
                              q = 1:3, method = "knn", angles = 21),
                         class_args[[nm]], keep.null = TRUE)
  add("prd_class_subset", nm, function() do.call(prd_class_subset, a),
      class_ok)
})

# ---- prd_threads -----------------------------------------------------------------------

threads_ok <- function(x) {
  if (!is.numeric(x) || length(x) != 1L || !(x >= 1)) {
    return(paste("thread count:", format(x)))
  }
  NULL
}
for (v in list(NULL, 0, 1, 2, -1, NA, 2.5, "a", 1e9, 3e9, c(1, 2), TRUE)) local({
  vv <- v
  add("prd_threads", paste("n =", if (is.null(vv)) "NULL" else count_label(vv)),
      function() {
        old <- prd_threads()
        on.exit(prd_threads(old))
        prd_threads(vv)
      }, threads_ok)
})

# ---- prd_cli --------------------------------------------------------------------------

dir <- tempfile("fuzz-cli")
dir.create(dir)
csv <- function(name, lines) {
  f <- file.path(dir, name)
  writeLines(lines, f)
  f
}
to_lines <- function(m) apply(m, 1, paste, collapse = ",")
f_real <- csv("real.csv", to_lines(X))
f_gen <- csv("gen.csv", to_lines(Y))
f_empty <- csv("empty.csv", character(0))
f_na <- csv("na.csv", c(to_lines(X[1:5, ]), "1,NA,2", to_lines(X[6:9, ])))
f_text <- csv("text.csv", c("a,b,c", "1,2,x", "3,4,y", "5,6,z"))
f_ragged <- csv("ragged.csv", c("1,2,3", "4,5", "6,7,8,9"))
f_one <- csv("one.csv", "1,2,3")
out <- file.path(dir, "out")
cli_args <- list(
  "args not character" = 123,
  "no arguments" = character(0),
  "help" = "--help",
  "one file" = f_real,
  "three files" = c(f_real, f_gen, f_gen),
  "missing file" = c(f_real, file.path(dir, "nope.csv")),
  "a directory" = c(f_real, dir),
  "empty file" = c(f_real, f_empty),
  # (a missing value is read as a value: the run writes its outputs)
  "NA in a file" = c(f_real, f_na, "--out", file.path(dir, "na-out")),
  "text columns" = c(f_real, f_text),
  "ragged rows" = c(f_real, f_ragged),
  "one row" = c(f_real, f_one),
  "--k without value" = c(f_real, f_gen, "--k"),
  "--k=abc" = c(f_real, f_gen, "--k=abc"),
  "--k 0" = c(f_real, f_gen, "--k", "0"),
  "--split 1" = c(f_real, f_gen, "--split", "1"),
  "--bogus" = c(f_real, f_gen, "--bogus"),
  "--quiet=yes" = c(f_real, f_gen, "--quiet=yes"),
  "--method foo" = c(f_real, f_gen, "--method", "foo"),
  "--bandwidth 1e300" = c(f_real, f_gen, "--method", "kde", "--bandwidth",
                          "1e300"),
  "--angles NaN" = c(f_real, f_gen, "--angles", "NaN"),
  "valid" = c(f_real, f_gen, "--method", "knn", "--seed", "1", "--angles",
              "21", "--quiet", "--out", out)
)
read_ok <- function(x) if (is.data.frame(x)) NULL else "not a data frame"
f_tsv <- csv("tab.tsv", c("a\tb", "1\t2", "3\t4"))
f_rds <- file.path(dir, "m.rds")
saveRDS(X, f_rds)
f_bad_rds <- file.path(dir, "bad.rds")
saveRDS(list(1, "a"), f_bad_rds)
f_npy <- csv("fake.npy", "not an npy file")
f_txt <- csv("header-only.csv", "a,b,c")
read_args <- list(
  "csv" = list(f_real), "tsv" = list(f_tsv), "rds matrix" = list(f_rds),
  "rds list" = list(f_bad_rds), "fake npy" = list(f_npy),
  "header only" = list(f_txt), "empty" = list(f_empty),
  "NA in a file" = list(f_na), "text columns" = list(f_text),
  "ragged" = list(f_ragged), "missing" = list(file.path(dir, "nope.csv")),
  "a directory" = list(dir), "unknown extension" = list(file.path(dir, "x.xyz")),
  "path = 1" = list(1), "path = NA" = list(NA_character_),
  "two paths" = list(c(f_real, f_gen)),
  "features = nope" = list(f_text, features = quote(nope)),
  "id = c" = list(f_text, id = "c")
)
for (nm in names(read_args)) local({
  a <- read_args[[nm]]
  add("prd_read", nm, function() do.call(prd_read, a), read_ok)
})

f_fake_npz <- csv("fake.npz", "not a zip file")
npz_args <- list(
  "digits" = list(system.file("extdata", "digits-models.npz",
                              package = "prdcurve")),
  "fake npz" = list(f_fake_npz), "csv" = list(f_real),
  "missing" = list(file.path(dir, "nope.npz")), "a directory" = list(dir),
  "path = 1" = list(1), "path = NA" = list(NA_character_),
  "two paths" = list(c(f_fake_npz, f_fake_npz))
)
for (nm in names(npz_args)) local({
  a <- npz_args[[nm]]
  add("prd_npz_arrays", nm, function() do.call(prd_npz_arrays, a), read_ok)
})

for (nm in names(cli_args)) local({
  a <- cli_args[[nm]]
  add("prd_cli", nm, function() {
    utils::capture.output(res <- prd_cli(a))
    res
  }, function(x) if (is.null(x)) NULL else curve_problem(x))
})

# ---- printing and plotting ------------------------------------------------------------

shown <- list("a curve" = good, "the origin" = origin,
              "bound curves" = prd_bind(good, square),
              "a subset of rows" = good[1:3, ])
for (nm in names(shown)) local({
  cv <- shown[[nm]]
  add("print.prd_curve (tbl_sum)", nm, function()
    utils::capture.output(print(cv)), function(x) {
      if (!length(x) || !grepl("prd_curve", x[1])) {
        return(paste("header:", x[1]))
      }
      NULL
    })
  add("plot.prd_curve", nm, function() {
    grDevices::pdf(NULL)
    on.exit(grDevices::dev.off())
    plot(cv)
  })
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    add("autoplot.prd_curve", nm, function()
      ggplot2::ggplot_build(ggplot2::autoplot(cv)), function(x) {
        if (!inherits(x, "ggplot_built")) return("not a built ggplot")
        NULL
      })
  }
})
for (nm in c("precision Inf", "character precision")) local({
  cv <- bad_curves[[nm]]
  add("plot.prd_curve", nm, function() {
    grDevices::pdf(NULL)
    on.exit(grDevices::dev.off())
    plot(cv)
  })
})
add("print.prd_gaussian_mixture", "a mixture", function()
  utils::capture.output(print(p_mix)), function(x) {
    if (!grepl("prd_gaussian_mixture", x[1])) return(paste("printed:", x[1]))
    NULL
  })

# ---- per-sample functions, comparisons, tidiers ----------------------------------

samples_ok <- function(cols) {
  function(x) {
    if (!is.data.frame(x) || !all(c("model", "set", "row", "k", cols) %in%
                                    names(x))) {
      return("not a per-sample tibble")
    }
    NULL
  }
}
for (nm in core) local({
  s <- sample_variants[[nm]]
  add("manifold_samples", nm, function()
    manifold_samples(s[[1]], s[[2]], k = 3),
    samples_ok(c("n_balls", "in_manifold", "n_in_ball", "covered")))
  add("entropy_samples", nm, function()
    entropy_samples(s[[1]], s[[2]], k = 3), samples_ok(c("pce", "re", "rce")),
    warned_ok = TRUE)
})
for (k in c(few_counts, list(39, 40))) local({
  kk <- k
  add("manifold_samples", paste("k =", count_label(kk)), function()
    manifold_samples(X, Y, k = kk), samples_ok("n_balls"))
})
cv_rep <- prd_curve(X, list(a = Y, b = Y + 0.5), method = "knn", angles = 11,
                    replicates = 3)
cv_one <- prd_curve(X, Y, method = "knn", angles = 11)
m_rep <- manifold_metrics(X, list(a = Y, b = Y + 0.5),
                          metrics = c("precision", "recall"), replicates = 3)
compare_ok <- function(x) {
  if (!is.data.frame(x) || !all(c("estimate", "lower", "upper") %in% names(x))) {
    return("not a comparison table")
  }
  ok <- is.na(x$lower) | (x$lower <= x$estimate + 1e-12 &
                            x$estimate <= x$upper + 1e-12)
  if (!all(ok)) return("estimate outside its interval")
  NULL
}
tidy_ok <- function(x) {
  if (!is.data.frame(x) || !all(c("estimate", "conf.low", "conf.high") %in% names(x))) {
    return("not a tidy table with broom's names")
  }
  ok <- is.na(x$conf.low) | (x$conf.low <= x$estimate + 1e-12 &
                               x$estimate <= x$conf.high + 1e-12)
  if (!all(ok)) return("estimate outside its interval")
  NULL
}
for (b in list(NULL, "a", "b", "c", NA, 1, c("a", "b"))) local({
  bb <- b
  add("prd_compare", paste("baseline =", deparse(bb)), function()
    prd_compare(cv_rep, baseline = bb), compare_ok)
  add("prd_compare", paste("metrics, baseline =", deparse(bb)), function()
    prd_compare(m_rep, baseline = bb), compare_ok)
})
for (cl in list(0, 1, NA, "a", 0.9, c(0.5, 0.9))) local({
  cc <- cl
  add("prd_compare", paste("conf_level =", deparse(cc)), function()
    prd_compare(cv_rep, conf_level = cc), compare_ok)
  add("tidy", paste("conf_level =", deparse(cc)), function()
    tidy(cv_rep, conf_level = cc), tidy_ok)
})
for (obj in list(cv_one, cv_rep, m_rep, 1, "a", data.frame(x = 1))) local({
  oo <- obj
  lab <- class(oo)[1]
  add("prd_compare", paste("x =", lab), function() prd_compare(oo),
      compare_ok)
  if (inherits(oo, c("prd_curve", "prd_metrics"))) {
    add("glance", paste("x =", lab), function() glance(oo),
        function(x) if (is.data.frame(x) && nrow(x) == 1L) NULL else "not one row")
  }
  add("prd_curve_info", paste("x =", lab), function() prd_curve_info(oo),
      function(x) if (is.data.frame(x)) NULL else "not a data frame")
  add("prd_curve_bands", paste("x =", lab), function() prd_curve_bands(oo),
      function(x) {
        if (!is.data.frame(x)) return("not a data frame")
        ends <- c(x$recall_lower, x$precision_lower, x$recall_upper,
                  x$precision_upper)
        if (any(ends[!is.na(ends)] < 0 | ends[!is.na(ends)] > 1 + 1e-12)) {
          return("band ends outside the unit square")
        }
        NULL
      })
})
for (cl in list(0, 1, NA, "a", c(0.5, 0.9))) local({
  cc <- cl
  add("prd_curve_bands", paste("conf_level =", deparse(cc)), function()
    prd_curve_bands(cv_rep, conf_level = cc),
    function(x) if (is.data.frame(x)) NULL else "not a data frame")
})
add("prd_curve", "replicates = 1", function()
  prd_curve(X, Y, replicates = 1, angles = 11, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
add("prd_curve", "replicates = 2, k too large for halves", function()
  prd_curve(X, Y, k = 15, replicates = 2, angles = 11, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
add("prd_curve", "replicates = -1", function()
  prd_curve(X, Y, replicates = -1, angles = 11, method = c("knn", "kde", "ipr", "coverage")), curve_ok)
add("prd_curve", "replicates = NA", function()
  prd_curve(X, Y, replicates = NA, angles = 11, method = c("knn", "kde", "ipr", "coverage")), curve_ok)

# ---- issue 18: tied data, replicates with row splits, intervals, bounds ------

tied <- function(n, d, levels) matrix(sample(levels, n * d, TRUE), n, d)

for (i in 1:8) local({
  ii <- i
  add("entropy_metrics", paste("tied data, case", ii), function() {
    x <- tied(30, 2, 0:2)
    y <- tied(25, 2, 0:ii %% 3)
    entropy_metrics(x, y, k = 1:2, subsample = FALSE)
  }, function(m) {
    if (any(is.nan(m$value))) return("NaN metric")
    NULL
  }, warned_ok = FALSE)
})
for (i in 1:6) local({
  ii <- i
  rows <- list(real = 31:40, generated = 31:40)
  add("prd_curve", paste("replicates with row splits, case", ii), function() {
    prd_curve(X, Y + ii / 10, method = c("knn", "ipr"), split = rows,
              replicates = 4, angles = 11, k = 3)
  }, function(cv) curve_problem(cv) %||% interval_problem(summary(cv)))
  add("manifold_metrics", paste("replicates with row splits, case", ii), function() {
    manifold_metrics(X, Y + ii / 10, split = rows, replicates = 4, k = 3,
                     metrics = c("precision", "recall", "density", "coverage"))
  }, function(m) metric_interval_problem(m, "density"))
})
for (i in 1:10) local({
  ii <- i
  add("prd_curve", paste("interval holds its estimate, case", ii), function() {
    n <- 20 + 10 * ii
    a <- matrix(rnorm(n * 2), n)
    b <- if (ii %% 2) a else matrix(rnorm(n * 2, ii / 10), n)
    prd_curve(a, b, method = c("knn", "coverage"), k = 3, angles = 21,
              replicates = 4)
  }, function(cv) curve_problem(cv) %||% interval_problem(summary(cv)))
  add("manifold_metrics", paste("interval holds its estimate, case", ii), function() {
    n <- 20 + 10 * ii
    manifold_metrics(matrix(rnorm(n * 3), n), matrix(rnorm(n * 3, ii / 5), n),
                     k = 2, replicates = 4)
  }, function(m) metric_interval_problem(m, "density"))
  add("entropy_metrics", paste("interval holds its estimate, case", ii), function() {
    n <- 20 + 10 * ii
    entropy_metrics(matrix(rnorm(n * 3), n), matrix(rnorm(n * 3, ii / 5), n),
                    k = 2, replicates = 4)
  }, function(m) metric_interval_problem(m, c("pce", "rce", "re")))
})
fig_ok <- function(p) if (inherits(p, "ggplot")) NULL else "not a ggplot"
for (obj in list(cv_one, cv_rep, m_rep, 1, "a", data.frame(x = 1))) local({
  oo <- obj
  lab <- class(oo)[1]
  add("autoplot", paste("object =", lab), function() {
    rlang::check_installed("ggplot2")
    autoplot(oo)
  }, fig_ok)
  add("prd_figure_size", paste("plot =", lab), function() prd_figure_size(oo),
      function(s) if (is.numeric(s$width) && s$width > 0 && s$height > 0) NULL else
        "no size")
})

test_that("the issue-18 fuzz cases: every interval of a seeded P = Q curve holds its estimate", {
  # the case of the issue: auc was 1.002 with interval [0.852, 1]
  set.seed(fuzz_seed)
  for (i in 1:5) {
    a <- matrix(rnorm(120), 60)
    s <- suppressWarnings(summary(prd_curve(a, a, method = "knn", k = 3,
                                            angles = 21, replicates = 4)))
    expect_null(interval_problem(s))
    expect_equal(s$auc, 1)
  }
})

test_that("tied data: no NaN, and the warning lists every non-finite metric as returned", {
  set.seed(fuzz_seed + 1)
  for (i in 1:10) {
    x <- tied(30, 2, 0:2)
    y <- tied(30, 2, 0:(1 + i %% 3))
    w <- NULL
    m <- withCallingHandlers(
      entropy_metrics(x, y, k = 1:2),
      warning = function(cond) {
        if (inherits(cond, "prdcurve_warning_zero_radius")) w <<- cond
        invokeRestart("muffleWarning")
      })
    expect_false(any(is.nan(m$value)))
    bad <- m[!is.finite(m$value), ]
    if (nrow(bad)) {
      expect_false(is.null(w))
      shown <- ifelse(is.na(bad$value), "NA", ifelse(bad$value > 0, "Inf", "-Inf"))
      for (j in seq_len(nrow(bad))) {
        expect_match(conditionMessage(w),
                     paste0(toupper(bad$metric[j]), " (k = ", bad$k[j], ") = ",
                            shown[j]), fixed = TRUE)
      }
    }
    smp <- suppressWarnings(entropy_samples(x, y, k = 1))
    expect_false(any(is.nan(c(smp$pce, smp$re, smp$rce))))
  }
})

# ---- issue 45: the findings of 20,000 cases ----------------------------------------------

# the calls of the issue; each error must name the argument given
issue45 <- list(
  "tidy(1)" = list("tidy", function() tidy(1), "`x`"),
  "glance(\"a\")" = list("glance", function() glance("a"), "`x`"),
  "prd_compare(1)" = list("prd_compare", function() prd_compare(1), "`x`"),
  "stacked on 4 and 3 rows" = list("prd_curve", function()
    prd_curve(matrix(rnorm(4), 4), matrix(rnorm(3), 3), method = "stacked"),
    "`method = \"stacked\"`"),
  "split = identity" = list("prd_curve", function()
    prd_curve(X, Y, split = identity), "`split`"),
  "real_classes = identity" = list("prd_class_subset", function()
    prd_class_subset(X, rep(1:4, 10), real_classes = identity), "`real_classes`"),
  "prd_read(1, member)" = list("prd_read", function()
    prd_read(1, member = "real"), "`path`")
)
for (nm in names(issue45)) local({
  cs <- issue45[[nm]]
  add(cs[[1]], paste("issue 45:", nm), cs[[2]])
})

test_that("issue 45: errors name the argument the user gave, with a class", {
  for (nm in names(issue45)) {
    cs <- issue45[[nm]]
    err <- tryCatch(suppressWarnings(cs[[2]]()), error = identity)
    expect_s3_class(err, "prdcurve_error")
    expect_match(conditionMessage(err), cs[[3]], fixed = TRUE, label = nm)
  }
  # tidy() and glance() of what no package tidies: the class says input
  expect_error(tidy(1), class = "prdcurve_error_input")
  expect_error(glance("a"), class = "prdcurve_error_input")
  expect_error(tidy(list(a = 1)), "It is a list", class = "prdcurve_error_input")
  err <- expect_error(suppressWarnings(
    prd_curve(matrix(rnorm(4), 4), matrix(rnorm(3), 3), method = "stacked")),
    class = "prdcurve_error_split")
  expect_match(conditionMessage(err), "`real` has 2 fit rows", fixed = TRUE)
  expect_match(conditionMessage(err), "smaller `split`", fixed = TRUE)
  expect_error(prd_curve(X, Y, split = identity), "It is a function",
               class = "prdcurve_error_split")
  expect_error(prd_read(1, member = "real"), "It is a number",
               class = "prdcurve_error_input")
})

test_that("issue 45: manifold_samples() lowers the default ppr_k on tiny sets, as manifold_metrics()", {
  set.seed(fuzz_seed + 45)
  a <- matrix(rnorm(8), 4)
  b <- matrix(rnorm(8), 4)
  w <- NULL
  s <- withCallingHandlers(
    manifold_samples(a, b, k = 2, probabilistic = TRUE),
    warning = function(cond) {
      if (inherits(cond, "prdcurve_warning_k_reduced")) w <<- cond
      invokeRestart("muffleWarning")
    })
  expect_false(is.null(w))
  # 4 rows, no split: ppr_k at most 3
  expect_match(conditionMessage(w), "use `ppr_k` = 3", fixed = TRUE)
  expect_identical(nrow(s), 8L)
  expect_true(all(s$p_in >= 0 & s$p_in <= 1))
  # the same p_precision as manifold_metrics() (the mean of p_in over
  # the generated rows)
  m <- suppressWarnings(manifold_metrics(a, b, k = 2, metrics = "p_precision"))
  expect_equal(mean(s$p_in[s$set == "generated"]), m$value)
  # a ppr_k the user set is checked, and named
  expect_error(suppressWarnings(
    manifold_samples(a, b, k = 2, probabilistic = TRUE, ppr_k = 4)),
    "`ppr_k` = 4", class = "prdcurve_error_k_too_large")
})

test_that("issue 45: entropy_samples() averages to entropy_metrics() when the sets differ in size", {
  set.seed(1)
  x <- matrix(rnorm(400), 100)
  y <- matrix(rnorm(160, 0.3), 40)
  set.seed(7)
  em <- suppressMessages(entropy_metrics(x, y))
  set.seed(7)
  expect_message(es <- entropy_samples(x, y), class = "prdcurve_message_subsampled")
  expect_equal(mean(es$pce, na.rm = TRUE), em$value[em$metric == "pce"],
               tolerance = 1e-12)
  expect_equal(mean(es$rce, na.rm = TRUE), em$value[em$metric == "rce"],
               tolerance = 1e-12)
  expect_equal(mean(es$re, na.rm = TRUE), em$value[em$metric == "re"],
               tolerance = 1e-12)
  # 40 rows of each set, numbered as given
  expect_identical(as.vector(table(es$set)), c(40L, 40L))
  real_rows <- es$row[es$set == "real"]
  expect_true(all(real_rows >= 1 & real_rows <= 100) && !anyDuplicated(real_rows))
  # subsample = FALSE keeps every row, as entropy_metrics(subsample = FALSE)
  em2 <- suppressWarnings(entropy_metrics(x, y, subsample = FALSE))
  es2 <- suppressWarnings(entropy_samples(x, y, subsample = FALSE))
  expect_identical(nrow(es2), 140L)
  expect_equal(mean(es2$pce, na.rm = TRUE), em2$value[em2$metric == "pce"],
               tolerance = 1e-12)
})

test_that("issue 45: a constant column is not a label column", {
  set.seed(fuzz_seed + 46)
  x <- cbind(matrix(rnorm(300), 100), 0)
  y <- cbind(matrix(rnorm(300), 100), 0)
  seen <- warning_classes(manifold_metrics(x, y, metrics = "precision"))
  expect_false("prdcurve_warning_label_column" %in% seen)
  # a two-valued column among continuous ones still is
  x[, 4] <- rep(0:1, 50)
  y[, 4] <- rep(0:1, 50)
  seen <- warning_classes(manifold_metrics(x, y, metrics = "precision"))
  expect_true("prdcurve_warning_label_column" %in% seen)
})

test_that("issue 45: the command line's errors and warnings show no R syntax", {
  # every command-line case above, plus runs that warn (tiny and
  # collapsed sets, k close to the set size)
  f_tiny <- csv("tiny.csv", to_lines(Y[1:8, ]))
  f_flat <- csv("flat.csv", to_lines(matrix(0.5, n0, 3)))
  runs <- c(cli_args, list(
    "tiny" = c(f_real, f_tiny, "--method", "knn,tightest", "--angles", "11",
               "--seed", "1", "--quiet", "--out", out),
    "collapsed" = c(f_real, f_flat, "--method", "knn", "--angles", "11",
                    "--seed", "1", "--quiet", "--out", out),
    "k near n" = c(f_real, f_gen, "--split", "0.9", "--method", "knn",
                   "--angles", "11", "--seed", "1", "--quiet", "--out", out),
    "--k 1000" = c(f_real, f_gen, "--k", "1000", "--quiet", "--out", out)))
  r_fns <- getNamespaceExports("prdcurve")
  for (nm in names(runs)) {
    texts <- character()
    res <- tryCatch(
      withCallingHandlers(
        utils::capture.output(prd_cli(runs[[nm]])),
        prdcurve_cli_warning = function(m) {
          texts <<- c(texts, conditionMessage(m))
          invokeRestart("muffleMessage")
        },
        message = function(m) invokeRestart("muffleMessage")),
      error = function(e) {
        texts <<- c(texts, conditionMessage(e))
        e
      })
    if (!length(texts)) next
    txt <- paste(texts, collapse = "\n")
    expect_no_match(txt, "`[A-Za-z_.][A-Za-z0-9_.]* = ", label = nm)
    expect_no_match(txt, "`[A-Za-z_.][A-Za-z0-9_.]*` = [0-9]", label = nm)
    expect_no_match(txt, "`(real|generated)(\\$[^`]*)?`", label = nm)
    calls <- regmatches(txt, gregexpr("[A-Za-z_.][A-Za-z0-9_.]*\\(\\)", txt))[[1]]
    expect_identical(intersect(sub("\\(\\)$", "", calls), r_fns), character(),
                     label = nm)
  }
})

# ---- the findings of random fuzzing (bench/fuzz.R) ------------------------------------

# each error must name the argument the caller gave (or, for a default the
# caller never set, say it is the default)
tiny_a <- X[1:4, ]
tiny_b <- Y[1:4, ]
mix_2d <- gaussian_mixture(c(0, 0))
random_fuzz <- list(
  "entropy_metrics(), the default k on 4 rows" = list("entropy_metrics", function()
    entropy_metrics(tiny_a, tiny_b), "The default `k` = 5", "k_too_large"),
  "entropy_samples() by do.call(), the default k" = list("entropy_samples", function()
    do.call(entropy_samples, list(real = tiny_a, generated = tiny_b)), "The default `k` = 5",
    "k_too_large"),
  "manifold_samples() by do.call(), the default k" = list("manifold_samples", function()
    do.call(manifold_samples, list(tiny_a, tiny_b)), "The default `k` = 5", "k_too_large"),
  "prd_curve(), the default k on the half-samples" = list("prd_curve", function()
    prd_curve(X[1:6, 1:2], Y[1:6, 1:2], method = "knn", replicates = 2, angles = 11),
    "The default `k` = 2", "k_too_large"),
  "manifold_metrics(), a k the caller gave" = list("manifold_metrics", function()
    manifold_metrics(tiny_a, tiny_b, k = 4), "`k` = 4", "k_too_large"),
  "prd_bind(), a named argument that is no curve" = list("prd_bind", function()
    prd_bind(good = good, bad = data.frame(x = 1)), "`bad`", "curve"),
  "prd_bind(), an unnamed one" = list("prd_bind", function()
    prd_bind(good, data.frame(x = 1)), "`..2`", "curve"),
  "features on a set of no columns" = list("entropy_metrics", function()
    entropy_metrics(X[1:5, 1, drop = FALSE], X[1:5, 0, drop = FALSE], features = 1),
    "`features`", "input"),
  "a mixture's log_density(NULL)" = list("gaussian_mixture", function()
    mix_2d$log_density(NULL), "`x`", "input"),
  "prd_bind() of an empty list" = list("prd_bind", function()
    prd_bind(a = list()), "`a` is an empty list", "input"),
  "smooth_marginal on 4 rows" = list("prd_curve", function()
    prd_curve(tiny_a, tiny_b, method = "smooth_marginal", angles = 11),
    "`real` has 2 fit rows", "split")
)
for (nm in names(random_fuzz)) local({
  cs <- random_fuzz[[nm]]
  add(cs[[1]], paste("random fuzz:", nm), cs[[2]])
})

test_that("the findings of random fuzzing: classed errors naming the argument given", {
  for (nm in names(random_fuzz)) {
    cs <- random_fuzz[[nm]]
    err <- tryCatch(suppressWarnings(cs[[2]]()), error = identity)
    expect_s3_class(err, paste0("prdcurve_error_", cs[[4]]))
    expect_match(conditionMessage(err), cs[[3]], fixed = TRUE, label = nm)
  }
  # a k the caller gave is not called the default
  err <- tryCatch(suppressWarnings(manifold_metrics(tiny_a, tiny_b, k = 4)),
                  error = identity)
  expect_no_match(conditionMessage(err), "default")
  # the limits stay exact: 4 rows, k at most 3
  expect_match(conditionMessage(tryCatch(suppressWarnings(
    entropy_metrics(tiny_a, tiny_b)), error = identity)), "at most 3", fixed = TRUE)
  # a default too large is named as such by the harness too
  run <- fuzz_run(function() entropy_metrics(tiny_a, tiny_b))
  expect_identical(fuzz_verdict(run, given = c("real", "generated"),
                                formals = names(formals(entropy_metrics)))$class, "error")
  run <- fuzz_run(function() prdcurve:::check_k(5, 3))
  expect_identical(fuzz_verdict(run, given = "real", formals = "k")$class, "unclear")
})

test_that("the findings of random fuzzing: a mixture's log-density is NA at a row with NA or NaN", {
  mix <- gaussian_mixture(0)
  ld <- mix$log_density(c(NaN, NA, 0, Inf))
  expect_identical(is.na(ld), c(TRUE, TRUE, FALSE, FALSE))
  expect_false(any(is.nan(ld)))
  expect_equal(ld[3:4], c(stats::dnorm(0, log = TRUE), -Inf))
})

test_that("the findings of random fuzzing: the command line's --method with no value", {
  dir <- withr::local_tempdir()
  f1 <- file.path(dir, "a.csv")
  f2 <- file.path(dir, "b.csv")
  utils::write.table(X, f1, sep = ",", row.names = FALSE, col.names = FALSE)
  utils::write.table(Y, f2, sep = ",", row.names = FALSE, col.names = FALSE)
  err <- tryCatch(prd_cli(c(f1, f2, "--method", "", "--quiet")), error = identity)
  expect_s3_class(err, "prdcurve_error_input")
  expect_match(conditionMessage(err), "`--method`", fixed = TRUE)
  expect_match(conditionMessage(err), "It is empty.", fixed = TRUE)
  expect_false(stray_dot(conditionMessage(err)))
})

# ---- run -------------------------------------------------------------------------------

test_that("the fuzz cases cover every exported function", {
  exports <- getNamespaceExports("prdcurve")
  covered <- sub(" .*$", "", unique(vapply(cases, `[[`, "", "fn")))
  expect_equal(setdiff(exports, covered), character(0))
  # a few hundred cases
  expect_gt(length(cases), 300)
})

for (fn in unique(vapply(cases, `[[`, "", "fn"))) local({
  fn_cases <- Filter(function(cs) cs$fn == fn, cases)
  test_that(paste0("fuzz: ", fn, " (", length(fn_cases), " cases)"), {
    for (cs in fn_cases) {
      problem <- fuzz_case(cs$f, cs$check, cs$warned_ok)
      expect(is.null(problem),
             sprintf("%s, %s: %s", fn, cs$label,
                     if (is.null(problem)) "" else problem))
    }
  })
})
