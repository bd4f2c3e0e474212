#' The class-subset experiment: PR curves with a known answer
#'
#' Simon, Webster and Rabin (2019, section 5.1) check PR estimators on
#' labelled data: every class's samples are split into two disjoint halves;
#' P holds the first halves of the `real_classes`, and Q the second halves
#' of the first `q` classes. If classes are well separated the true curve
#' is the rectangle given by the class proportions ([prd_discrete()]): for
#' equal class sizes, maximal precision \eqn{\min(1, |P|/q)} and maximal
#' recall \eqn{\min(1, q/|P|)}.
#'
#' @param x Samples: numeric matrix or data frame, one row per sample.
#' @param labels Class of each row (vector of length `nrow(x)`).
#' @param real_classes Classes in P. Default: the first five sorted labels.
#' @param q Numbers of classes in Q (each Q uses the first `q` classes of
#'   the sorted labels). Default `c(1, 3, 5, 7, 9)`.
#' @param ... Passed to [prd_curve()] (method, k, split, angles, ...).
#' @return A list with `curves` (a `prd_curve` with a first column `q`:
#'   the estimated curves and the rectangles as method `"truth"`; subset
#'   one `q` to plot it) and `summary` (a tibble: `q`, the columns of
#'   [summary.prd_curve()], and `iou`, each curve's IoU with its rectangle).
#' @section Errors: as [prd_curve()] for `x` and the arguments in `...`;
#'   `labels` of the wrong length or with `NA`; `real_classes` empty or not
#'   found in `labels`; `q` empty or not whole numbers between 1 and the
#'   number of classes.
#' @references Simon, L., Webster, R. and Rabin, J. (2019). Revisiting
#'   precision and recall definition for generative model evaluation. ICML.
#'   Section 5.1 (class-subset experiment on CIFAR-10).
#' @examples
#' \donttest{
#' set.seed(1)
#' res <- prd_class_subset(digits[, 1:64], digits$digit, q = c(1, 5),
#'                         method = "knn")
#' res$summary[, c("q", "method", "max_precision", "max_recall", "iou")]
#' }
#' @export
prd_class_subset <- function(x, labels, real_classes = NULL,
                             q = c(1, 3, 5, 7, 9), ...) {
  df <- x
  x <- as_samples(x)
  tell_times(df, x)
  rm(df)
  if (!is.atomic(labels) || length(labels) != nrow(x) || anyNA(labels)) {
    prd_abort(
      "{.arg labels} must give a class for each of the {nrow(x)} rows of {.arg x}, without NA."
    )
  }
  classes <- sort(unique(labels))
  if (is.null(real_classes)) real_classes <- utils::head(classes, 5)
  if (!is.atomic(real_classes) || length(real_classes) < 1L ||
      !all(real_classes %in% classes)) {
    prd_abort(c(
      "{.arg real_classes} must be one or more classes found in {.arg labels}.",
      "x" = if (!is.atomic(real_classes) || !length(real_classes))
        "It is {.obj_type_friendly {real_classes}}." else
          "Not in {.arg labels}: {.val {setdiff(real_classes, classes)}}."
    ))
  }
  if (!is.numeric(q) || length(q) < 1L) {
    prd_abort(c(
      "{.arg q} must be one or more whole numbers between 1 and {length(classes)} (the number of classes).",
      "x" = "It is {.obj_type_friendly {q}}."
    ))
  }
  q <- vapply(q, check_count, integer(1), arg = "q", max = length(classes))
  # the two halves of every class (random, reproducible with set.seed())
  half <- integer(nrow(x))
  for (cl in classes) {
    rows <- which(labels == cl)
    rows <- rows[sample.int(length(rows))]
    half[rows] <- rep_len(1:2, length(rows))
  }
  p_rows <- which(half == 1L & labels %in% real_classes)
  curves <- list()
  sums <- list()
  for (qq in q) {
    q_classes <- classes[seq_len(qq)]
    q_rows <- which(half == 2L & labels %in% q_classes)
    cv <- class_subset_curve(x[p_rows, , drop = FALSE],
                             x[q_rows, , drop = FALSE], qq, ...)
    pc <- table(factor(labels[p_rows], levels = classes))
    qc <- table(factor(labels[q_rows], levels = classes))
    truth <- prd_discrete(as.numeric(pc), as.numeric(qc),
                          angles = length(unique(cv$lambda)) - 2L)
    truth <- relabel_curve(truth, "truth")
    s <- summary(cv)
    s$iou <- unname(prd_iou(cv, truth))
    both <- bind_curves(list(cv, truth))
    both$q <- qq
    curves[[length(curves) + 1L]] <- both[c("q", setdiff(names(both), "q"))]
    sums[[length(sums) + 1L]] <- tibble::tibble(q = qq, s)
  }
  list(curves = bind_curves(curves),
       summary = vctrs::vec_rbind(!!!sums))
}

#' prd_curve() of one q; its errors are re-raised in the terms of
#' prd_class_subset() (the sizes of P and Q), keeping their class.
#' @noRd
class_subset_curve <- function(p, q_set, qq, ..., call = rlang::caller_env()) {
  tryCatch(prd_curve(p, q_set, ...), prdcurve_error = function(e) {
    kind <- sub("^prdcurve_error_", "", class(e)[1])
    prd_abort(c(
      "The curve for {.arg q} = {qq} cannot be computed: P has {nrow(p)} rows and Q {nrow(q_set)} (one half of each class).",
      "i" = "Give more rows per class, fewer classes in {.arg real_classes}, or a smaller {.arg k} in {.arg ...}."
    ), kind, parent = e, call = call)
  })
}
