# Random fuzz cases of the functions that take results (tidiers,
# comparisons, summaries, plots), files (the readers) and command lines
# (bench/fuzz.R; the shared draws are in bench/fuzz-cases.R).

# ---- results as input: tidiers, comparisons, summaries, plots -------------------

#' Results of the package (and things that are not), built once
fuzz_objects <- function() {
  set.seed(1)
  X <- rmat(30, 3)
  Y <- rmat(30, 3, 0.6)
  good <- prd_truth_gaussian(0, 1, angles = 21)
  cv_rep <- quiet(prd_curve(X, list(a = Y, b = Y + 0.5), method = "knn", angles = 11, replicates = 3))
  bad <- good
  bad$precision[5] <- NA
  list(
    "a curve" = quiet(prd_curve(X, Y, method = "knn", angles = 11)),
    "curves with replicates" = cv_rep,
    "tightest curve" = quiet(prd_curve(X, Y, angles = 11)),
    "metrics" = quiet(manifold_metrics(X, Y, metrics = c("precision", "recall"))),
    "metrics with replicates" = quiet(manifold_metrics(X, list(a = Y, b = Y + 0.5),
                                                       metrics = c("precision", "recall"), replicates = 3)),
    "entropy metrics" = quiet(entropy_metrics(X, Y, k = 2)),
    "embedding metrics" = quiet(embedding_metrics(X, Y, metrics = c("fd", "kid"))),
    "a truth" = good, "a discrete curve" = prd_discrete(c(1, 0), c(0, 1), angles = 21),
    "three rows of a curve" = good[1:3, ], "no rows of a curve" = good[0, ],
    "a curve with NA" = bad, "a curve without recall" = good[, setdiff(names(good), "recall")],
    "a summary" = summary(cv_rep), "a comparison" = quiet(prd_compare(cv_rep)),
    "a data frame" = data.frame(x = 1), "a number" = 1, "a string" = "a", "NULL" = NULL,
    "a list" = list(), "a function" = identity, "a matrix" = X
  )
}

gen_object_fn <- function(fn, objects) {
  function() {
    # summary() and plot() reach the package's methods only for its classes
    pool <- if (fn %in% c("summary", "plot")) {
      Filter(function(o) inherits(o, c("prd_curve", "prd_metrics", "prd_comparison")), objects)
    } else objects
    obj <- pick(pool)
    args <- list(x = obj)
    check <- function(x) NULL
    if (fn %in% c("prd_compare", "tidy", "prd_curve_bands")) {
      args <- c(args, optional(conf_level = function() draw(function() 0.9, list(0, 1, NA, "a", c(0.5, 0.9)))))
    }
    if (fn == "prd_compare") {
      args <- c(args, optional(baseline = function() draw(function() pick(list("a", "b")), list("c", NA, 1, c("a", "b"))),
                               atoms = function() draw(function() "exact", list("foo"))))
      check <- function(x) {
        if (!is.data.frame(x)) return("not a comparison table")
        ok <- is.na(x$lower) | (x$lower <= x$estimate + 1e-12 & x$estimate <= x$upper + 1e-12)
        if (!all(ok)) "estimate outside its interval"
      }
    }
    if (fn == "prd_figure_size") names(args) <- "plot"
    if (fn == "autoplot") {
      names(args) <- "object"
      return(list(fn = function(object) ggplot2::ggplot_build(autoplot(object)), args = args))
    }
    if (fn == "summary") {
      args <- c(args, optional(beta = function() draw(function() pick(list(1, 8)), list(0, -1, 1e300, 1e-300, NA, "a")),
                               epsilon = function() draw(function() 0.01, list(0, -1, NA, 2))))
      names(args)[1] <- "object"
      return(list(fn = summary, args = args, check = function(x) {
        if (inherits(x, "prd_curve_summary")) summary_problem(x) else NULL
      }))
    }
    if (fn == "plot") {
      return(list(fn = function(x) {
        grDevices::pdf(NULL)
        on.exit(grDevices::dev.off())
        plot(x)
      }, args = args))
    }
    list(args = args, check = check)
  }
}

gen_prd_iou <- function(objects) {
  function() {
    a <- pick(objects)
    b <- if (coin(0.2)) a else pick(objects)
    list(args = list(curve1 = a, curve2 = b), check = function(x) {
      if (!in_unit(x)) return(paste("IoU not finite in [0, 1]:", describe_bad(x)))
      if (identical(a, b) && inherits(a, "prd_curve") && all(abs(x - 1) > 1e-9)) {
        return(sprintf("the IoU of a curve with itself is %.6g, not 1", x[1]))
      }
      y <- tryCatch(quiet(prd_iou(b, a)), error = function(e) NULL)
      if (length(y) == length(x) && length(x) == 1 && abs(x - y) > 1e-9) {
        return(sprintf("the IoU is not symmetric: %.6g against %.6g", x, y))
      }
      NULL
    })
  }
}

gen_prd_bind <- function(objects) {
  function() {
    k <- sample(0:3, 1)
    args <- lapply(seq_len(k), function(i) pick(objects))
    if (k && coin(0.6)) names(args) <- sample(c("a", "b", "a", ""), k, TRUE)
    list(args = args, check = function(x) {
      if (inherits(x, "prd_metrics")) {
        # metrics tables: every row of every table, each model, metric
        # and k once
        if (nrow(x) != sum(vapply(args, NROW, integer(1)))) {
          return("bound metrics tables lost or gained rows")
        }
        if (anyDuplicated(data.frame(x$model, x$metric, x$k))) {
          return("a model, metric and k twice among bound metrics tables")
        }
        return(NULL)
      }
      if (is.data.frame(x)) curve_problem(x) else NULL
    })
  }
}

# ---- files: prd_read(), prd_npz_arrays(), prd_cli() ----------------------------------

#' Files for the readers and the command line, written once in `dir`
fuzz_files <- function(dir) {
  dir.create(dir, showWarnings = FALSE)
  w <- function(name, lines) {
    f <- file.path(dir, name)
    writeLines(lines, f)
    f
  }
  to_lines <- function(m) apply(m, 1, paste, collapse = ",")
  set.seed(2)
  X <- rmat(20, 3)
  Y <- rmat(20, 3, 0.5)
  rds <- file.path(dir, "m.rds")
  saveRDS(X, rds)
  bad_rds <- file.path(dir, "bad.rds")
  saveRDS(list(1, "a"), bad_rds)
  list(
    good = c(real = w("real.csv", to_lines(X)), gen = w("gen.csv", to_lines(Y)),
             gen2 = w("gen2.csv", to_lines(Y + 1)),
             header = w("header.csv", c("f1,f2,f3", to_lines(Y))),
             id = w("id.csv", c("id,f1,f2", paste0(1:20, ",", to_lines(Y[, 1:2])))),
             tsv = w("tab.tsv", c("a\tb", "1\t2", "3\t4", "5\t6", "7\t8")), rds = rds),
    bad = c(empty = w("empty.csv", character(0)),
            na = w("na.csv", c(to_lines(X[1:5, ]), "1,NA,2", to_lines(X[6:9, ]))),
            text = w("text.csv", c("a,b,c", "1,2,x", "3,4,y", "5,6,z")),
            ragged = w("ragged.csv", c("1,2,3", "4,5", "6,7,8,9")),
            one = w("one.csv", "1,2,3"), two_cols = w("two.csv", to_lines(Y[, 1:2])),
            header_only = w("header-only.csv", "a,b,c"), bad_rds = bad_rds,
            npy = w("fake.npy", "not an npy file"), npz = w("fake.npz", "not a zip"),
            missing = file.path(dir, "nope.csv"), dir = dir,
            unknown = w("x.xyz", "1,2"), huge = w("huge.csv", to_lines(X * 1e300)))
  )
}

gen_prd_read <- function(files) {
  function() {
    path <- draw(function() pick(as.list(c(files$good, files$bad))), list(), 0, 0.15)
    args <- c(list(path = path), optional(
      features = function() draw(function() pick(list(1:2, "f1", quote(starts_with("f")))),
                                 list(99, "nope", quote(nope))),
      id = function() draw(function() "id", list("nope", 1)),
      header = function() draw(function() coin(), list(NA, "yes")),
      member = function() draw(function() "real", list(1)), p = 0.2))
    list(args = args, check = function(x) if (is.data.frame(x)) NULL else "not a data frame")
  }
}

gen_prd_npz_arrays <- function(files) {
  function() {
    path <- draw(function() pick(as.list(c(files$bad[c("npz", "missing", "dir")], files$good["real"],
                                          system.file("extdata", "digits-models.npz", package = "prdcurve")))),
                 list(), 0, 0.2)
    list(args = list(path = path), check = function(x) NULL)
  }
}

#' A random command line: files, then flags with valid and invalid values
gen_prd_cli <- function(files, out_dir) {
  function() {
    good <- files$good
    f <- c(good[c("real", "gen", "gen2", "header", "id", "tsv", "rds")], files$bad)
    paths <- if (coin(0.7)) unname(good[c("real", "gen")]) else unname(sample(f, sample(0:3, 1)))
    if (coin(0.15)) paths <- c(paste0("--real=", good[["real"]]), paste0("--generated=m=", good[["gen"]]))
    flag_pool <- list(
      "--k" = c("1", "2", "3", "0", "-1", "abc", "1e9", ""), "--split" = c("0", "0.5", "1", "-1", "abc"),
      "--method" = c("knn", "kde", "knn,ipr", "tightest", "linear", "marginal", "foo", ""),
      "--families" = c("knn,mixture", "quadratic", "tightest", "foo", ""),
      "--angles" = c("11", "21", "2", "NaN", "1e9"), "--seed" = c("1", "abc"),
      "--bandwidth" = c("1", "1,2", "-1", "1e300"), "--folds" = c("1", "2", "0", "x"),
      "--replicates" = c("0", "2", "-1"), "--compare" = c("gen", "nope"),
      "--atoms" = c("exact", "ignore", "foo"), "--features" = c("1:2", "nope", "f1,f2", "starts_with(\"f\")"),
      "--id" = c("id", "nope"), "--generated" = c(good[["gen2"]], "b=nope.csv"))
    switches <- c("--open", "--standardize", "--header", "--no-header", "--metrics", "--bogus", "-h")
    flags <- character()
    for (nm in sample(names(flag_pool), sample(0:3, 1))) {
      v <- sample(flag_pool[[nm]], 1)
      flags <- c(flags, if (coin()) paste0(nm, "=", v) else c(nm, v))
    }
    if (coin(0.3)) flags <- c(flags, sample(switches, 1))
    if (coin(0.1)) flags <- c(flags, "--metrics=fd,foo")
    if (!"--method" %in% sub("=.*", "", flags) && coin(0.8)) flags <- c(flags, "--method", "knn")
    out <- if (coin(0.95)) file.path(out_dir, "run") else file.path(out_dir, "no-such-dir", "run")
    args <- c(paths, flags, "--angles", "11", "--quiet", "--out", out)
    if (!any(grepl("^--seed", flags))) args <- c(args, "--seed", "1")
    list(fn = function(args) {
      utils::capture.output(res <- prd_cli(args))
      res
    }, args = list(args = args), cli = TRUE,
    check = function(x) if (is.null(x) || !is.data.frame(x)) NULL else curve_problem(x))
  }
}
