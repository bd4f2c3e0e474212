# Every sweep of the engine on future workers (future::plan()), in blocks of
# rows that each worker runs with the same C engine. Per-row results do not
# depend on the blocks, so they are identical to the in-process run:
#
# - own radii (symmetric sweeps in process): each fit set's rows in
#   blocks, a block's rows against the whole set, each row left out of its
#   own radii by its fit position (spec$self_rows): the exact k-th
#   distances, the same values (see own_radii_futures_sets() for why not
#   blocks against blocks).
# - cross decisions without a split (manifold metrics): X_f in blocks, each
#   against the whole of Y_f, both sides decided, each pair once; a row of
#   X_f is complete in its block, a row of Y_f sums its counts over the
#   blocks (integers: exact). The ppr sums of Y_f's rows are sums of
#   doubles whose order the engine fixes in blocks of X_f's rows
#   (prd_cross()): the blocks start at multiples of that block, so their
#   partial sums are the engine's, added in the same order.
# - cross radii without a split (entropies): X_f in blocks against Y_f
#   (each pair once), Y_f's rows merged from their kmax smallest in each
#   block: a row's k-th radius is the k-th smallest of its parts, the
#   exact k-th distance, the same value.
# - evaluation rows of a split: in blocks against the fit sets.
# - the full sweep without a split (curves with split = 0): the fit rows
#   (X_f's, then Y_f's) in blocks, each block's rows evaluated against the
#   whole fit sets with their fit positions given (spec$self_rows), so each
#   row is left out of its own balls as in process; own radii given
#   (computed first, in blocks as above). A row's counts and radii are
#   complete in its block.

#' Whether the engine's sweeps go to futures: a non-sequential
#' future::plan() with more than one worker (package future installed),
#' option prdcurve.future not FALSE, and a call of at least
#' engine_futures_min_work (`work`: the pairs of rows times the columns)
#' unless the option is TRUE.
#' @noRd
engine_futures_on <- function(work = Inf) {
  opt <- getOption("prdcurve.future")
  # (a plan is set once future is loaded, or named by its option or
  # environment variable for future to read when it loads: otherwise the
  # plan is sequential, and loading future, some 0.1-0.2 s, is spared)
  !isFALSE(opt) &&
    (isNamespaceLoaded("future") || !is.null(getOption("future.plan")) ||
       nzchar(Sys.getenv("R_FUTURE_PLAN"))) &&
    requireNamespace("future", quietly = TRUE) &&
    !inherits(future::plan(), "sequential") &&
    future::nbrOfWorkers() > 1 &&
    (isTRUE(opt) || work >= engine_futures_min_work)
}

#' The smallest call the engine sends to futures: pairs of rows (of both
#' sets together, n^2 / 2) times the columns. A round of futures costs
#' some 0.2-0.6 s (the sets sent, the workers started on them), where the
#' process pairs about 2.6e10 rows x columns a second with two threads:
#' below some 1e10 the round costs more than it saves even with remote
#' workers. Measured on an idle 2-core machine, two multisession workers,
#' 3 models of 2,000 x 64 with 20 replicates (about 5e8 each call): knn
#' curves without a split 7.8 s with every call on the workers, 1.0 s in
#' process (0.9 s under the plan with this threshold); the default curve
#' 28.2 s against 20.9 s (18.5 s against 16.0 s with it). The curves of
#' 20,000 x 256 without a split (2e11) took 0.88 times the in-process time.
#' @noRd
engine_futures_min_work <- 1e10

#' Tasks to workers: the tasks (with sizes) in nw groups, largest first to
#' the least loaded group, then one future per group; each task's result
#' is returned in the order of `tasks`.
#' @noRd
engine_run_tasks <- function(tasks, sizes, globals,
                             call = rlang::caller_env()) {
  nw <- min(future::nbrOfWorkers(), length(tasks))
  load <- numeric(nw)
  group <- integer(length(tasks))
  for (t in order(-sizes)) {
    w <- which.min(load)
    group[t] <- w
    load[w] <- load[w] + sizes[t]
  }
  items <- engine_task_items(tasks, group, nw, globals)
  parts <- engine_future_map(items, "engine_worker_group", NULL, call = call)
  out <- vector("list", length(tasks))
  for (w in seq_len(nw)) out[group == w] <- parts[[w]]
  out
}

#' One future per item: `run` (the name of a function of the package,
#' called as run(item, globals) by the worker's own copy of the package),
#' the values in the order of `items`. The values are collected one by one
#' with future::value(), which waits on the worker's connection: the
#' calling process does not poll while the workers compute (as
#' future.apply's resolve() loop does, at a measurable CPU cost).
#' @noRd
engine_future_map <- function(items, run, globals,
                              call = rlang::caller_env()) {
  with_future_errors({
    fs <- lapply(items, function(item) {
      future::future({
        f <- utils::getFromNamespace(run, "prdcurve")
        f(item, globals)
      }, globals = list(item = item, globals = globals, run = run),
      packages = "prdcurve", seed = NULL)
    })
    lapply(fs, future::value)
  }, call)
}

#' A worker's tasks: each a call of engine_call() on the sets of
#' `globals`. The worker runs as many threads as it has cores
#' (parallelly::availableCores(): one per multisession worker, the
#' allocation of a Slurm job), or option prdcurve.worker_threads; the
#' BLAS (OpenBLAS) as many.
#' @noRd
engine_worker <- function(tasks, globals) {
  n <- getOption("prdcurve.worker_threads")
  if (is.null(n)) {
    n <- if (requireNamespace("parallelly", quietly = TRUE))
      parallelly::availableCores() else 1L
  }
  old <- thread_info()[["set"]]
  .Call(ffi_threads, as.integer(n))
  on.exit(.Call(ffi_threads, as.integer(old)), add = TRUE)
  # the BLAS's own threads too: with one engine thread the products are
  # one BLAS call, whose threads (OpenBLAS: one per core of the machine,
  # not of the worker) would oversubscribe the worker's share
  old_blas <- engine_blas_threads(as.integer(n))
  if (!is.na(old_blas)) on.exit(engine_blas_threads(old_blas), add = TRUE)
  lapply(tasks, function(t) {
    sets <- globals$sets[t$sets]
    if (!is.null(t$fit_all)) {
      # a block of the full sweep: the fit rows are the globals'
      t$s <- new_split(globals$fit_rows, split_eval(t$s), split_asked(t$s),
                       split_self_rows(t$s))
    }
    engine_call(sets[[1]], sets[[2]], t$s, t$ks, t$what, own = t$own,
                radii = t$radii, closed = t$closed, cross = t$cross,
                precision = t$precision, ppr_parts = isTRUE(t$ppr_parts))
  })
}

#' One item per worker: its tasks (group == w) and the globals with only
#' the sets they use, the tasks' set numbers renumbered (a worker that
#' computes one set's own radii is not sent the other set).
#' @noRd
engine_task_items <- function(tasks, group, nw, globals) {
  lapply(seq_len(nw), function(w) {
    g <- tasks[group == w]
    used <- sort(unique(unlist(lapply(g, `[[`, "sets"))))
    g <- lapply(g, function(t) {
      t$sets <- match(t$sets, used)
      t
    })
    gl <- globals
    gl$sets <- globals$sets[used]
    list(tasks = g, globals = gl)
  })
}

#' A worker's group of tasks with the sets they use (engine_run_tasks())
#' @noRd
engine_worker_group <- function(item, globals) {
  engine_worker(item$tasks, item$globals)
}

#' Rows in nb blocks of nearly equal size, each starting at a multiple of
#' `align` positions (fewer blocks when there are fewer such starts)
#' @noRd
engine_blocks <- function(rows, nb, align = 1L) {
  n <- length(rows)
  units <- ceiling(n / align)
  nb <- max(1L, min(nb, units))
  if (nb == 1L) return(list(rows))
  unit <- (seq_len(n) - 1L) %/% align + 1L
  unname(split(rows, cut(seq_len(units), nb, labels = FALSE)[unit]))
}

#' The k-th smallest of each row of the parts (matrices with the same rows,
#' each row sorted), for each k of ks. Two parts a, b: the k-th smallest of
#' their union is min over i of max(a_i, b_(k-i)) (a_0 = b_0 = -Inf), one
#' of the values itself, in O(k) vector operations per k; more parts are
#' sorted row by row.
#' @noRd
merge_smallest <- function(parts, ks) {
  nr <- nrow(parts[[1]])
  if (nr == 0L) return(matrix(double(), 0L, length(ks)))
  if (length(parts) == 2L) {
    a <- parts[[1]]
    b <- parts[[2]]
    na <- ncol(a)
    nb <- ncol(b)
    out <- matrix(Inf, nr, length(ks))
    for (j in seq_along(ks)) {
      k <- ks[j]
      r <- rep(Inf, nr)
      for (i in max(0L, k - nb):min(k, na)) {
        v <- if (i == 0L) b[, k] else if (i == k) a[, i] else
          pmax(a[, i], b[, k - i])
        r <- pmin(r, v)
      }
      out[, j] <- r
    }
    return(out)
  }
  m <- do.call(cbind, parts)
  o <- order(rep(seq_len(nr), ncol(m)), as.vector(m))
  s <- matrix(as.vector(m)[o], nr, ncol(m), byrow = TRUE)
  s[, ks, drop = FALSE]
}

#' Own radii (squared, a column per k of ks) of the fit rows `rows` of x
#' within themselves, self excluded, on futures; NULL when there are too
#' few rows for blocks (the caller then computes them in process).
#' @noRd
own_radii_futures <- function(x, rows, ks, precision) {
  own_radii_futures_sets(list(x), list(rows), ks, precision)[[1]]
}

#' Own radii of several sets (`xs`, fit rows `rows_list`) in one round of
#' futures, their tasks balanced together. With at least as many sets as
#' workers, each set is one task (the symmetric sweep, as in process);
#' else each set's fit rows in blocks, a block's rows as evaluation rows
#' against the whole fit set with their fit positions (`self_rows`: self
#' left out), their radii in it (query_x) at ks only. A list with one
#' matrix per set (NULL for a set of fewer than two rows).
#'
#' Blocks against the whole set compute each pair twice, where the
#' symmetric sweep of the calling process computes it once; blocks against
#' blocks (each pair once) would need every k up to max(ks) from each part
#' to merge them (the k-th smallest of their union), and that selection
#' and its exact distances cost more than the products saved (2 cores,
#' one thread per block: 3,000 x 2,048 at k = 55, 0.92 s in blocks against
#' the whole set, 2.25 s in blocks against blocks, 0.91 s for the
#' symmetric sweep in process; 10,000 x 64 at k = 100, 0.57 s, 6.46 s and
#' 0.52 s).
#' @noRd
own_radii_futures_sets <- function(xs, rows_list, ks, precision) {
  nsets <- length(xs)
  empty <- nsets + 1L
  nw <- future::nbrOfWorkers()
  tasks <- list()
  sizes <- numeric()
  plan <- vector("list", nsets)
  big <- vapply(rows_list, length, 1L) >= 2L
  # no more workers than sets: each set whole to one worker, in the
  # symmetric sweep of the calling process (each pair once, half the
  # products of blocks against the whole set; 20,000 x 256, two sets on
  # two workers: bench/results.md), the sets balanced by their pairs
  whole <- sum(big) >= nw
  for (g in seq_len(nsets)) {
    rows <- as.integer(rows_list[[g]])
    if (length(rows) < 2L) next
    if (whole) {
      tasks[[length(tasks) + 1L]] <- list(
        sets = c(g, empty), what = "own", ks = ks, cross = FALSE,
        s = new_split(list(rows, integer())),
        own = NULL, radii = list(), closed = TRUE, precision = precision)
      sizes <- c(sizes, as.double(length(rows))^2 / 2)
      plan[[g]] <- length(tasks)
      next
    }
    blocks <- engine_blocks(seq_along(rows), nw)
    first <- length(tasks) + 1L
    for (p in blocks) {
      tasks[[length(tasks) + 1L]] <- list(
        sets = c(g, empty), what = "query_x", ks = ks, cross = FALSE,
        s = new_split(list(rows, integer()), list(rows[p], integer()),
                      self_rows = p),
        own = NULL, radii = list(), closed = TRUE, precision = precision)
      sizes <- c(sizes, length(p) * as.double(length(rows)))
    }
    plan[[g]] <- first:length(tasks)
  }
  out <- vector("list", nsets)
  if (!length(tasks)) return(out)
  res <- engine_run_tasks(tasks, sizes,
                          list(sets = c(xs, list(xs[[1]][0, , drop = FALSE]))))
  for (g in seq_len(nsets)) {
    if (is.null(plan[[g]])) next
    out[[g]] <- if (whole) res[[plan[[g]]]]$own_x else
      do.call(rbind, lapply(res[plan[[g]]], `[[`, "query_x"))
  }
  out
}

#' Cross decisions without a split (spec$cross) on futures: the outputs of
#' engine_call(real, generated, s, ks, what, own, radii, closed, cross =
#' TRUE), own radii given. X_f in blocks, each against the whole of Y_f,
#' each pair once: X_f's rows are complete in their block; Y_f's counts
#' are summed over the blocks (integers), and Y_f's ppr sums are formed as
#' the engine forms them, from partial sums per block of
#' engine_ppr_block() rows of X_f (the tasks' blocks start at its
#' multiples) added in block order.
#' @noRd
cross_futures <- function(real, generated, s, ks, what, own, radii, closed,
                          precision) {
  fx <- as.integer(split_fit(s, 1))
  fy <- as.integer(split_fit(s, 2))
  nfx <- length(fx)
  nfy <- length(fy)
  counts <- setdiff(what, "ppr")
  ppr <- "ppr" %in% what
  bx <- engine_blocks(seq_len(nfx), future::nbrOfWorkers(),
                      align = if (ppr) engine_ppr_block() else 1L)
  tasks <- lapply(bx, function(b) {
    list(sets = c(1L, 2L), what = what, ks = ks, cross = TRUE,
         s = new_split(list(fx[b], fy)),
         own = list(own[[1]][b, , drop = FALSE], own[[2]]),
         radii = radii, closed = closed, precision = precision,
         ppr_parts = ppr)
  })
  rx <- engine_run_tasks(tasks, lengths(bx) * as.double(nfy),
                         list(sets = list(real, generated)))
  out <- rx[[1]]
  nE <- nfx + nfy
  for (e in counts) {
    a <- paste0(e, "_a")
    b <- paste0(e, "_b")
    nk <- ncol(rx[[1]][[a]])
    ma <- matrix(NA_integer_, nE, nk)
    mb <- matrix(NA_integer_, nE, nk)
    ya <- matrix(0L, nfy, nk)
    for (w in seq_along(bx)) {
      nb <- length(bx[[w]])
      mb[bx[[w]], ] <- rx[[w]][[b]][seq_len(nb), , drop = FALSE]
      ya <- ya + rx[[w]][[a]][nb + seq_len(nfy), , drop = FALSE]
    }
    ma[nfx + seq_len(nfy), ] <- ya
    out[[a]] <- ma
    out[[b]] <- mb
  }
  if (ppr) {
    pa <- matrix(NA_real_, nE, 1L)
    pb <- matrix(NA_real_, nE, 1L)
    sy <- numeric(nfy)
    for (w in seq_along(bx)) {
      nb <- length(bx[[w]])
      pb[bx[[w]], ] <- rx[[w]]$ppr_b[seq_len(nb), , drop = FALSE]
      parts <- attr(rx[[w]], "ppr_parts")
      for (j in seq_len(ncol(parts))) sy <- sy + parts[, j]
    }
    pa[nfx + seq_len(nfy), ] <- sy
    out$ppr_a <- pa
    out$ppr_b <- pb
  }
  attr(out, "ppr_parts") <- NULL
  engine_combine_attrs(out, rx)
}

#' Radii of the rows of X_f in Y_f and of Y_f in X_f without a split
#' (query_y of X_f's rows, query_x of Y_f's rows) on futures: X_f in
#' blocks against Y_f; Y_f's rows merged from their kmax smallest in each
#' block. A list of the two (nfx x nk, nfy x nk).
#' @noRd
cross_radii_futures <- function(real, generated, s, ks, precision) {
  fx <- as.integer(split_fit(s, 1))
  fy <- as.integer(split_fit(s, 2))
  kmax <- max(ks)
  nb <- future::nbrOfWorkers()
  while (nb > 1L && length(fx) %/% nb < kmax) nb <- nb - 1L
  if (nb < 2L || length(fy) < kmax) return(NULL)
  bx <- engine_blocks(seq_len(length(fx)), nb)
  kk <- seq_len(kmax)
  tasks <- lapply(bx, function(b) {
    list(sets = c(1L, 2L), what = c("query_x", "query_y"), ks = kk,
         cross = FALSE, s = new_split(list(fx[b], fy)),
         own = list(matrix(0, length(b), kmax), matrix(0, length(fy), kmax)),
         radii = list(), closed = TRUE, precision = precision)
  })
  res <- engine_run_tasks(tasks, lengths(bx) * as.double(length(fy)),
                          list(sets = list(real, generated)))
  xy <- matrix(NA_real_, length(fx), length(ks))
  yparts <- list()
  for (w in seq_along(bx)) {
    nbw <- length(bx[[w]])
    xy[bx[[w]], ] <- res[[w]]$query_y[seq_len(nbw), ks, drop = FALSE]
    yparts[[w]] <- res[[w]]$query_x[nbw + seq_len(length(fy)), , drop = FALSE]
  }
  out <- list(xy, merge_smallest(yparts, ks))
  engine_combine_attrs(out, res)
}

#' The attributes of several engine results, combined
#' @noRd
engine_combine_attrs <- function(out, parts) {
  attr(out, "exact") <- sum(vapply(parts, attr, 0, "exact"))
  attr(out, "threads") <- max(vapply(parts, attr, 0L, "threads"))
  used <- unique(vapply(parts, attr, "", "precision"))
  attr(out, "precision") <- if (length(used) == 1L) used else "mixed"
  out
}

#' The full sweep without a split (eval = the fit rows, self left out) on
#' futures: the fit rows in blocks of nearly equal size (one per worker),
#' each block's rows as evaluation rows against the whole fit sets, with
#' their fit positions (`self_rows`). `own`: own radii of both fit sets
#' (given when an estimator needs them). The outputs of engine_call(real,
#' generated, s, ks, what, own, radii, closed), evaluation rows bound back
#' in order (X_f's, then Y_f's).
#' @noRd
full_futures <- function(real, generated, s, ks, what, own, radii, closed,
                         precision) {
  fx <- as.integer(split_fit(s, 1))
  fy <- as.integer(split_fit(s, 2))
  nfx <- length(fx)
  nF <- nfx + length(fy)
  blocks <- engine_blocks(seq_len(nF), future::nbrOfWorkers())
  tasks <- lapply(blocks, function(p) {
    px <- p[p <= nfx]
    py <- p[p > nfx] - nfx
    list(sets = c(1L, 2L), what = what, ks = ks, cross = FALSE,
         fit_all = TRUE,
         s = new_split(NULL, list(fx[px], fy[py]), self_rows = p),
         own = own, radii = radii, closed = closed, precision = precision)
  })
  res <- engine_run_tasks(tasks, lengths(blocks) * as.double(nF),
                          list(sets = list(real, generated),
                               fit_rows = list(fx, fy)))
  engine_bind_blocks(res)
}

#' Both fit sets' own radii at k on futures, in blocks (engine-futures.R):
#' the real set's from the shared cache, or both sets' in one round of
#' futures (their tasks balanced together); a set the workers could not
#' take in process.
#' @noRd
own_pair_futures <- function(real, generated, s, k, precision, shared, call) {
  in_process <- function(x, rows) own_radii_local(x, rows, k, precision, call)
  ox <- if (!is.null(shared)) shared_own_get(shared, s, k)
  r <- if (is.null(ox)) {
    own_radii_futures_sets(list(real, generated), split_fit(s), k, precision)
  } else {
    list(ox, own_radii_futures(generated, split_fit(s, 2), k, precision))
  }
  if (is.null(r[[1]])) r[[1]] <- in_process(real, split_fit(s, 1))
  if (is.null(ox) && !is.null(shared)) shared_own_put(shared, s, k, r[[1]])
  if (is.null(r[[2]])) r[[2]] <- in_process(generated, split_fit(s, 2))
  r
}

#' The futures runner: the planner's sweep records for this request
#' (engine_plan(), the records ffi_engine() loops over in process), each run
#' in blocks on the workers (engine-futures.R): the symmetric sweeps by
#' own_pair() (both sets' own radii in one round), then "cross-radii",
#' "cross-decide" or the full sweep without a split; with a split, every
#' sweep after the own radii runs inside the blocks of evaluation rows
#' (engine_futures()). NULL where the records leave the work to the
#' in-process engine (own radii given: its call returns them).
#' @noRd
futures_run <- function(real, generated, s, ks, rest, own_arg, radii, closed,
                        cross, precision, own_pair, call) {
  table <- engine_estimators()
  self <- !split_has_eval(s)
  own_level <- function(o) if (is.null(o)) 0L else if (is.null(o[[2]])) 1L else 2L
  sweeps <- engine_plan(rest, self = self, cross = cross,
                        own = own_level(own_arg))
  with_own <- function(out) {
    if ("own" %in% rest) {
      out$own_x <- own_arg[[1]]
      out$own_y <- own_arg[[2]]
    }
    out
  }
  # the outputs (NULL: the in-process engine's work) and the own radii
  # as they now are
  done <- function(out) list(out = out, own = own_arg)
  needs_own <- "own" %in% rest ||
    any(vapply(table$needs[match(rest, table$name)],
               function(nd) "own_radii" %in% nd, TRUE))
  for (sw in sweeps) {
    if (startsWith(sw, "symmetric")) {
      # the own radii once, in blocks on the workers
      if (own_level(own_arg) < 2L) own_arg <- own_pair(ks)
      next
    }
    if (!self) {
      if (cross) return(done(NULL))
      return(done(engine_futures(real, generated, s, ks, rest, own_arg, radii,
                                 closed, precision, call = call)))
    }
    if (sw == "cross-decide") {
      return(done(with_own(cross_futures(real, generated, s, ks,
                                         setdiff(rest, "own"), own_arg,
                                         radii, closed, precision))))
    }
    if (sw == "cross-radii") {
      if (!all(rest %in% c("own", "query_x", "query_y"))) return(done(NULL))
      xr <- cross_radii_futures(real, generated, s, ks, precision)
      if (is.null(xr)) return(done(NULL))
      # query_x: own radii of X_f's rows, X_f-radii of Y_f's rows;
      # query_y: Y_f-radii of X_f's rows, own radii of Y_f's rows
      outputs <- unlist(table$outputs)
      out <- stats::setNames(vector("list", length(outputs)), outputs)
      if ("query_x" %in% rest) out$query_x <- rbind(own_arg[[1]], xr[[2]])
      if ("query_y" %in% rest) out$query_y <- rbind(xr[[1]], own_arg[[2]])
      return(done(engine_combine_attrs(with_own(out), list(xr))))
    }
    if (sw == "full" && !cross) {
      # the full sweep would find the own radii by scattering each row's
      # own ball (and return them): on futures they come first, in blocks
      own_out <- needs_own && own_level(own_arg) < 2L
      if (own_out) own_arg <- own_pair(ks)
      out <- full_futures(real, generated, s, ks, setdiff(rest, "own"),
                          own_arg, radii, closed, precision)
      if (own_out) {
        out$own_x <- own_arg[[1]]
        out$own_y <- own_arg[[2]]
      }
      return(done(out))
    }
  }
  done(NULL)
}

#' The evaluation rows in blocks, one per worker (each worker runs the
#' same C engine on its block against the fit sets, own radii given), the
#' per-row outputs bound back in order in R. Per-row results do not depend
#' on the blocks, so they equal the in-process run. The evaluation rows
#' are positions in the two sets (a list) or query points of their own (a
#' matrix, as prd_kde_plugin()'s draws), each block sent with its rows.
#' @noRd
engine_futures <- function(real, generated, s, ks, what, own, radii, closed,
                           precision, call = rlang::caller_env()) {
  # the evaluation rows of block p (positions 1..ne in order: real's, then
  # generated's; or the rows of the query matrix)
  ev <- split_eval(s)
  if (is.matrix(ev)) {
    ne <- nrow(ev)
    rows_of <- function(p) ev[p, , drop = FALSE]
  } else {
    ex <- as.integer(ev[[1]])
    ey <- as.integer(ev[[2]])
    nex <- length(ex)
    ne <- nex + length(ey)
    rows_of <- function(p) list(ex[p[p <= nex]], ey[p[p > nex] - nex])
  }
  nw <- future::nbrOfWorkers()
  blocks <- if (ne > 0L) engine_blocks(seq_len(ne), nw) else list(integer())
  tasks <- lapply(blocks, function(p) {
    list(sets = c(1L, 2L), what = what, ks = ks, cross = FALSE,
         s = new_split(split_fit(s), rows_of(p)),
         own = own, radii = radii, closed = closed, precision = precision)
  })
  parts <- engine_run_tasks(tasks, pmax(lengths(blocks), 1),
                            list(sets = list(real, generated)), call = call)
  engine_bind_blocks(parts)
}

#' The engine outputs of blocks of evaluation rows (in order) as one: the
#' per-evaluation-row outputs bound by rows, the counts per fit row
#' ("hits") summed over the blocks, the rest from the first block,
#' attributes combined.
#' @noRd
engine_bind_blocks <- function(parts) {
  table <- engine_estimators()
  eval_out <- unlist(table$outputs[table$rows == "evaluation"])
  hit_out <- unlist(table$outputs[table$rows == "hits"])
  out <- parts[[1]]
  for (o in names(out)) {
    if (is.null(out[[o]])) next
    if (o %in% eval_out) {
      out[[o]] <- do.call(rbind, lapply(parts, `[[`, o))
    } else if (o %in% hit_out) {
      out[[o]] <- Reduce(`+`, lapply(parts, `[[`, o))
    }
  }
  engine_combine_attrs(out, parts)
}

