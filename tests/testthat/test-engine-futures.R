# Tests of R/engine-futures.R.

# Sets with ties (a grid) and offsets, for exact radii and decisions at the
# rounding windows: real on a lattice, gen continuous, gen2 gen rounded.
# Leaves R's RNG where the draws end (the tests draw on from there).
# run() in this process, then under 2 multisession workers (the plan
# restored on return): both results and the engine's sweep counts of this
# process during the second run.
on_workers <- function(run) {
  seq_res <- run()
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  # (these sets are small: TRUE sends every call to the workers)
  withr::local_options(prdcurve.future = TRUE)
  prdcurve:::engine_sweeps(reset = TRUE)
  par_res <- run()
  list(seq = seq_res, par = par_res,
       here = prdcurve:::engine_sweeps(reset = TRUE))
}

tie_sets <- function(seed, n_real, n_gen) {
  set.seed(seed)
  real <- matrix(sample(0:5, n_real * 3, TRUE) + 1e3, ncol = 3)
  gen <- matrix(rnorm(n_gen * 3, 1e3 + 2), ncol = 3)
  list(real = real, gen = gen, gen2 = round(gen))
}

test_that("under a multisession future plan the evaluation blocks run as futures, with the same results", {
  quiet_traps({
    skip_unless_workers()
    set.seed(314)
    real <- matrix(sample(0:4, 500 * 3, TRUE) + 0, ncol = 3)
    gen <- matrix(rnorm(450 * 3, 1), ncol = 3)
    run <- function() {
      set.seed(9)
      # (integer against continuous data: the families disagree, on purpose)
      cv <- suppressWarnings(prd_curve(real, gen, angles = 51, k = c(5, 9),
                                       method = c("knn", "kde", "ipr", "coverage")),
                             classes = "prdcurve_warning_family_disagreement")
      set.seed(9)
      m <- manifold_metrics(real, gen, k = c(3, 5), split = 0.5)
      list(cv = cv, m = m)
    }
    seq_res <- run()
    old <- future::plan(future::multisession, workers = 2)
    on.exit(future::plan(old), add = TRUE)
    # small calls stay in this process (a round of futures costs more than
    # their work); option TRUE sends every call, FALSE none
    expect_true(prdcurve:::engine_futures_on())
    expect_false(prdcurve:::engine_futures_on(1e9))
    prdcurve:::engine_sweeps(reset = TRUE)
    small <- run()
    expect_gt(sum(prdcurve:::engine_sweeps(reset = TRUE)), 0)
    expect_identical(small$cv, seq_res$cv)
    withr::local_options(prdcurve.future = TRUE)
    expect_true(prdcurve:::engine_futures_on(1e9))
    par_res <- run()
    expect_identical(sum(prdcurve:::engine_sweeps(reset = TRUE)), 0)
    expect_identical(par_res$cv, seq_res$cv)
    expect_identical(par_res$m, seq_res$m)
    withr::local_options(prdcurve.future = FALSE)
    expect_false(prdcurve:::engine_futures_on())
    withr::local_options(prdcurve.future = TRUE)
    future::plan(future::sequential)
    expect_false(prdcurve:::engine_futures_on())
  })
})

test_that("under futures, own radii and the sweeps without a split run on the workers, with the same results", {
  quiet_traps({
    skip_unless_workers()
    sets <- tie_sets(316, 420, 380)
    real <- sets$real
    gen <- sets$gen
    gen2 <- sets$gen2
    realc <- real + matrix(rnorm(420 * 3, sd = 0.1), ncol = 3)
    big <- matrix(rnorm(2300 * 3, 1e3 + 1), ncol = 3)
    run <- function() {
      set.seed(9)
      list(
        m = manifold_metrics(real, list(a = gen, b = gen2), k = c(2, 6)),
        four = manifold_metrics(real, gen, k = 4, metrics = c(
          "precision", "recall", "density", "coverage")),
        # more than one block of X_f for the ppr sums of Y_f's rows
        ppr = manifold_metrics(big, gen, k = 3,
                               metrics = c("p_precision", "p_recall", "coverage")),
        rows = manifold_metrics(real, gen, k = 3,
                                split = list(real = 1:150, generated = 1:150)),
        samples = manifold_samples(real, gen2, k = 3, probabilistic = TRUE),
        ent = entropy_metrics(realc, gen, k = c(1, 3)),
        own = knn_entropy(gen, k = 4),
        curve = prd_curve(real, gen, k = 5, angles = 31),
        # the knn family's k-occurrences (hubness), with and without a split
        knn0 = prd_curve(realc, gen, k = 4, angles = 31, method = "knn",
                         split = 0),
        knn = prd_curve(realc, gen, k = 4, angles = 31, method = "knn"),
        # its own radii (the bandwidth) and its external draws
        plugin = prd_kde_plugin(real, gen, n_mc = 300, angles = 31)
      )
    }
    both <- on_workers(run)
    seq_res <- both$seq
    par_res <- both$par
    here <- both$here
    for (nm in names(seq_res)) expect_identical(par_res[[nm]], seq_res[[nm]])
    # no sweep ran in this process: own radii, cross decisions and cross
    # radii without a split went to the workers too
    expect_identical(sum(here), 0)
    # each worker is sent only the sets its tasks use
    tk <- list(list(sets = c(1L, 3L)), list(sets = c(2L, 3L)), list(sets = c(1L, 2L)))
    it <- prdcurve:::engine_task_items(tk, c(1L, 2L, 2L), 2L,
                                       list(sets = list("x", "y", "e"), fit = 1))
    expect_identical(it[[1]]$globals$sets, list("x", "e"))
    expect_identical(it[[1]]$tasks[[1]]$sets, c(1L, 2L))
    expect_identical(it[[2]]$globals$sets, list("x", "y", "e"))
    expect_identical(lapply(it[[2]]$tasks, `[[`, "sets"), list(c(2L, 3L), c(1L, 2L)))
    expect_identical(it[[2]]$globals$fit, 1)
    # the merge of own radii from blocks is the k-th smallest of the parts
    m <- prdcurve:::merge_smallest(list(cbind(1, 4, 9), cbind(2, 3, 10)), c(1, 3, 5))
    expect_identical(m, cbind(1, 3, 9))
  })
})

test_that("under futures, the full sweep without a split (prd_curve(split = 0)) runs on the workers, with the same results", {
  quiet_traps({
    skip_unless_workers()
    sets <- tie_sets(318, 430, 370)
    real <- sets$real
    gen <- sets$gen
    gen2 <- sets$gen2
    nb <- c("knn", "kde", "ipr", "coverage")
    s0 <- list(fit = list(1:430, 1:370), eval = NULL)
    run <- function() {
      set.seed(9)
      list(
        curve0 = prd_curve(real, list(a = gen, b = gen2), k = c(2, 5, 9),
                           split = 0, angles = 31, method = nb),
        open0 = prd_curve(real, gen2, k = 4, split = 0, angles = 31,
                          method = nb, closed = FALSE),
        bw0 = prd_curve(real, gen, k = 3, split = 0, angles = 31,
                        method = c("kde", "knn"), bandwidth = c(1, 2)),
        curve5 = prd_curve(real, gen, k = c(3, 6), split = 0.5, angles = 31,
                           method = nb),
        tight0 = suppressWarnings(
          prd_curve(real, gen, k = 5, split = 0, angles = 31),
          classes = "prdcurve_warning_family_disagreement"),
        ipr = prdcurve:::engine_neighbours(real, gen2, s0, c(1, 7), "ipr"),
        knn = prdcurve:::engine_neighbours(real, gen, s0, 3,
                                           c("own", "knn", "query_all")),
        mixed = prdcurve:::engine_neighbours(real, gen, s0, c(2, 4),
                                             c("coverage", "query_x", "kde"),
                                             bandwidth = 1.5)
      )
    }
    both <- on_workers(run)
    seq_res <- both$seq
    par_res <- both$par
    here <- both$here
    for (nm in names(seq_res)) {
      a <- par_res[[nm]]
      b <- seq_res[[nm]]
      if (startsWith(class(a)[1], "list")) {
        attr(a, "exact") <- attr(b, "exact") <- NULL
        attr(a, "threads") <- attr(b, "threads") <- NULL
      }
      expect_identical(a, b)
    }
    # no sweep ran in this process
    expect_identical(sum(here), 0)
  })
})
