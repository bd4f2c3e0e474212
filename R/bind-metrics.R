# prd_bind() of metrics tables (prd_metrics: manifold_metrics(),
# entropy_metrics(), embedding_metrics(), pmse_stats()): the tables of
# separate calls as one, as one call with every model would have made it.
# A table's attributes are of three kinds: per model (bound, relabelled),
# of the call's first model (kept from the first table, as one call keeps
# them), and settings of the call, which must agree.

#' Attributes with one entry per model: a table with a model column, or a
#' vector, list or matrix (rows) named by the models
#' @noRd
metrics_model_attrs <- c("replicates", "estimates", "vendi_classes",
                         "model_sizes", "parameters", "ct_cells",
                         "eval_sizes", "real_set", "real_draws")

#' Attributes of the first model of a call (manifold_metrics()' split
#' sizes and ppr radii), and the replicates' divisor (of the sets' sizes;
#' one divisor per table, as for curves): the first table's
#' @noRd
metrics_first_attrs <- c("ppr_radius", "divisor")

#' Bind metrics tables `tables` (a list; `nms` their argument names, ""
#' where none), relabelling the models of named ones: one model takes the
#' name, several "<name> <model>".
#' @noRd
bind_metrics <- function(tables, nms, call = rlang::caller_env()) {
  args <- ifelse(nzchar(nms), nms, paste0("..", seq_along(tables)))
  is_metrics <- vapply(tables, inherits, logical(1), "prd_metrics")
  if (!all(is_metrics)) {
    odd <- args[!is_metrics]
    prd_abort(c(
      "{.fn prd_bind} binds curves or metrics tables, not both.",
      "x" = "{.arg {args[is_metrics]}} {?is a metrics table/are metrics tables}, {.arg {odd}} {?is/are} not.",
      "i" = "Bind the curves and the metrics tables in separate calls."
    ), "input", call = call)
  }
  parts <- lapply(seq_along(tables), function(i) {
    check_metrics_table(tables[[i]], args[i], call = call)
    relabel_metrics(tables[[i]], nms[i])
  })
  check_metrics_keys(parts, args, call = call)
  rows <- vctrs::vec_rbind(!!!lapply(parts, function(p) {
    tibble::as_tibble(as.list(p))
  }))
  out <- new_prd_metrics(rows)
  attr_names <- unique(unlist(lapply(parts, function(p) {
    setdiff(names(attributes(p)), c("names", "row.names", "class"))
  })))
  for (nm in attr_names) {
    values <- lapply(parts, attr, nm)
    attr(out, nm) <- bind_metrics_attr(nm, values, args, call = call)
  }
  out
}

#' A prd_metrics table with its columns model, metric, k and value, else
#' an error (prdcurve_error_metrics) naming the argument
#' @noRd
check_metrics_table <- function(x, arg, call) {
  need <- c("model", "metric", "k", "value")
  lacking <- setdiff(need, names(x))
  if (length(lacking)) {
    prd_abort(c(
      "{.arg {arg}} must be a metrics table with columns {.field {need}}.",
      "x" = "It lacks {.field {lacking}}."
    ), "metrics", call = call)
  }
  invisible(x)
}

#' A table's models relabelled by `name` (its argument's, "" for none):
#' in its rows and in its per-model attributes, which keep the models of
#' its rows only (a table filtered to some models keeps every model's
#' attributes)
#' @noRd
relabel_metrics <- function(x, name) {
  models <- unique(x$model)
  map <- stats::setNames(if (!nzchar(name)) models else
    if (length(models) == 1L) name else paste(name, models), models)
  x$model <- unname(map[x$model])
  for (nm in intersect(metrics_model_attrs, names(attributes(x)))) {
    v <- attr(x, nm)
    if (is.data.frame(v) && "model" %in% names(v)) {
      v <- v[v$model %in% models, , drop = FALSE]
      v$model <- unname(map[v$model])
    } else if (is.matrix(v) && !is.null(rownames(v))) {
      v <- v[rownames(v) %in% models, , drop = FALSE]
      rownames(v) <- unname(map[rownames(v)])
    } else if (!is.null(names(v))) {
      v <- v[names(v) %in% models]
      names(v) <- unname(map[names(v)])
    }
    attr(x, nm) <- v
  }
  sizes <- attr(x, "sizes")
  if ("real" %in% names(sizes)) {
    # embedding_metrics()' sizes: the real set's, then each model's
    sizes <- sizes[names(sizes) %in% c("real", models)]
    hit <- names(sizes) %in% models
    names(sizes)[hit] <- unname(map[names(sizes)[hit]])
    attr(x, "sizes") <- sizes
  }
  x
}

#' No (model, metric, k) twice among the bound tables, else an error
#' (prdcurve_error_metrics) naming the rows and the arguments that hold
#' them
#' @noRd
check_metrics_keys <- function(parts, args, call) {
  keys <- lapply(parts, function(p) {
    tibble::tibble(model = p$model, metric = p$metric, k = as.integer(p$k))
  })
  all_keys <- vctrs::vec_rbind(!!!keys)
  if (!vctrs::vec_duplicate_any(all_keys)) return(invisible())
  dup <- vctrs::vec_unique(all_keys[vctrs::vec_duplicate_detect(all_keys), ])
  labels <- paste0(dup$model, " ", dup$metric,
                   ifelse(is.na(dup$k), "", paste0(" (k = ", dup$k, ")")))
  held <- vapply(keys, function(k) any(vctrs::vec_in(k, dup)), logical(1))
  prd_abort(c(
    "Each model, metric and {.arg k} may appear once among the tables given to {.fn prd_bind}.",
    "x" = "Repeated: {.val {labels}}, in {.arg {args[held]}}.",
    "i" = "Name the arguments to relabel their models, e.g. {.code prd_bind(a = metrics1, b = metrics2)}."
  ), "metrics", call = call)
}

#' The bound value of attribute `nm` from the tables' `values` (NULL where
#' a table has none): per-model ones bound (a vector's or matrix's entry of
#' a model in several tables, of different metrics, the first table's),
#' the first model's kept,
#' embedding_metrics()' sizes bound with the real set's size agreeing,
#' and any other (a setting of the call: split, closed, k_prime,
#' bandwidth, maxorder, vendi_real, conf_level, ...) the same in every
#' table that has it, else an error (prdcurve_error_metrics) naming it.
#' @noRd
bind_metrics_attr <- function(nm, values, args, call) {
  has <- !vapply(values, is.null, logical(1))
  v <- values[has]
  if (nm %in% metrics_first_attrs) return(v[[1]])
  if (nm %in% metrics_model_attrs) {
    if (is.data.frame(v[[1]])) {
      out <- vctrs::vec_rbind(!!!v)
      # the replicates laid out as one call lays them: by replicate, then
      # model
      if (nm == "replicates") {
        out <- out[order(out$replicate, method = "radix"), , drop = FALSE]
      }
      return(out)
    }
    # a model in several tables (its manifold and its embedding metrics)
    # keeps its first table's entry, as one call has one per model
    if (is.matrix(v[[1]])) {
      out <- do.call(rbind, v)
      if (is.null(rownames(out))) return(out)
      return(out[!duplicated(rownames(out)), , drop = FALSE])
    }
    out <- do.call(c, v)
    if (is.null(names(out))) return(out)
    return(out[!duplicated(names(out))])
  }
  if (nm == "sizes" && all(vapply(v, function(s) "real" %in% names(s),
                                  logical(1)))) {
    real <- vapply(v, function(s) s[["real"]], numeric(1))
    if (length(unique(real)) > 1L) {
      setting_differs("the real set's size", real, args[has], call)
    }
    return(c(v[[1]]["real"], do.call(c, lapply(v, function(s) {
      s[names(s) != "real"]
    }))))
  }
  if (nm == "sizes") return(v[[1]])
  same <- vapply(v, identical, logical(1), v[[1]])
  if (!all(same)) setting_differs(paste0("{.field ", nm, "}"), v, args[has], call)
  v[[1]]
}

#' The error of a setting that differs between bound tables
#' @noRd
setting_differs <- function(what, values, args, call) {
  shown <- vapply(values, function(x) {
    if (is.numeric(x) || is.logical(x) || is.character(x)) {
      paste(format(x), collapse = ", ")
    } else {
      "another value"
    }
  }, character(1))
  shown <- gsub("}", "}}", gsub("{", "{{", shown, fixed = TRUE), fixed = TRUE)
  each <- stats::setNames(paste0("{.arg ", args, "}: ", shown), rep("*", length(args)))
  prd_abort(c(
    paste0("The tables given to {.fn prd_bind} must share ", what,
           ": one call with every model would have one."),
    "x" = paste0(what, " differs:"),
    each,
    "i" = "Compute every table with the same settings (and real set)."
  ), "metrics", call = call)
}
