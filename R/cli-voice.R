# The command line's own voice: the conditions raised by the R functions
# that prd_cli() calls name R arguments and R syntax (`k` = 40,
# `method = "knn"`, `manifold_metrics()`); on the command line they are
# rewritten to name its flags and files (`--k 40`, `--method knn`,
# `--metrics`, real.csv), through one table, cli_flag_table(). Warnings are
# printed as they arrive, before the results, as "prdcurve: warning: ..."
# lines on standard error; errors keep their classes with the rewritten
# text (the script prints them as "prdcurve: error: ..." and exits with
# status 1). Advice to use what the run already uses is dropped, as is
# advice that has no command-line form.

#' The one table from R arguments to command-line flags
#'
#' One row per argument of [prd_curve()]/[manifold_metrics()]/[embedding_metrics()] that the
#' command line sets: `arg` (the R name), `flag` (its option) and, for
#' arguments set by a switch, the R value the switch gives (`on`) and the
#' R value without it (`off`). Functions with a command-line form are rows
#' whose `arg` ends in `()`.
#' @noRd
cli_flag_table <- function() {
  data.frame(
    arg = c("k", "split", "method", "families", "angles", "bandwidth", "folds",
            "repeats", "replicates", "features", "id", "member", "header",
            "closed", "standardize", "baseline", "maxorder", "max_params",
            "manifold_metrics()", "prd_compare()", "set.seed()",
            "prd_read()"),
    flag = c("--k", "--split", "--method", "--families", "--angles", "--bandwidth",
             "--folds", "--repeats", "--replicates", "--features", "--id",
             "FILE.npz:NAME", "--header", "--open", "--standardize",
             "--compare", "--maxorder", "--max-params", "--metrics", "--compare",
             "--seed", "FILE"),
    on = c(rep(NA, 13), "FALSE", "\"real\"", NA, rep(NA, 6)),
    off = c(rep(NA, 13), "TRUE", "\"none\"", NA, rep(NA, 6)),
    stringsAsFactors = FALSE
  )
}

#' Run `expr` (the work of prd_cli() after its options are parsed) in the
#' command line's voice: warnings and prdcurve's messages rewritten and
#' printed at once (warnings as "prdcurve: warning: ..." on standard
#' error, each text once), errors re-raised with their classes and the
#' rewritten text.
#' @param opt the parsed options (cli_parse()): the flags in use and the
#'   files, for the rewriting.
#' @noRd
cli_voice <- function(expr, opt) {
  told <- character()
  tryCatch(
    withCallingHandlers(
      expr,
      warning = function(w) {
        bullets <- cli_translate(cnd_bullets(w), opt)
        if (inherits(w, "prdcurve_warning_id_column")) {
          bullets <- cli_array_id(bullets, w$columns)
        }
        text <- cli_text(bullets)
        if (!text %in% told) {
          told <<- c(told, text)
          cli_emit(paste0("prdcurve: warning: ", text), w)
        }
        invokeRestart("muffleWarning")
      },
      prdcurve_message = function(m) {
        if (inherits(m, c("prdcurve_message_progress", "prdcurve_cli_warning",
                          "prdcurve_cli_message"))) {
          return(invisible())
        }
        bullets <- cnd_bullets(m)
        translated <- cli_translate(bullets, opt)
        if (identical(unname(translated), unname(bullets))) return(invisible())
        # (nothing left: no empty line; each text once, as the warnings:
        # the curve and --metrics read the same files)
        text <- cli_text(translated, lead = 0L)
        if (!any(nzchar(trimws(translated))) || text %in% told) {
          invokeRestart("muffleMessage")
        }
        told <<- c(told, text)
        # (its own class kept: prdcurve_message_dropped_columns, ...)
        cli_emit(text, m,
                 class = c("prdcurve_cli_message",
                           grep("^prdcurve_message_", class(m), value = TRUE)))
        invokeRestart("muffleMessage")
      }),
    prdcurve_error = function(e) {
      e$message <- cli_translate(cnd_bullets(e), opt)
      e$body <- NULL
      e$footer <- NULL
      e$call <- NULL
      e$trace <- NULL
      stop(e)
    })
}

#' The advice of an id-like column's warning (rewritten bullets) when the
#' file it names is an array: `--id` names a column of a table, and an
#' array's columns V1, V2, ... are chosen by number, so `--id V1` becomes
#' `--features=-1` (as warn_label_columns() advises for arrays).
#' `columns`: the columns' positions (the warning's field `columns`).
#' @noRd
cli_array_id <- function(bullets, columns) {
  file <- regmatches(bullets[[1]], regexec("^`([^`]+)`", bullets[[1]]))[[1]]
  if (!length(file) || !cli_is_array(cli_file_spec(file[2]))) return(bullets)
  pos <- as.character(columns)
  advice <- grep("`--id ", bullets, fixed = TRUE)
  if (!length(pos) || !length(advice)) return(bullets)
  drop <- if (length(pos) == 1L) paste0("--features=-", pos) else
    paste0("--features='c(", paste0("-", pos, collapse = ", "), ")'")
  bullets[[advice[1]]] <- paste0(
    "Drop ", if (length(pos) == 1L) "it" else "them", " with `", drop,
    "`: an array has no column names, its columns (V1, V2, ...) are chosen by number.")
  bullets
}

#' Print a rewritten condition on standard error, as a message of class
#' `prdcurve_cli_warning` (or `class`) that keeps the original condition
#' in its field `condition` (so tests and callers can still read its class).
#' @noRd
cli_emit <- function(text, original, class = "prdcurve_cli_warning") {
  cnd <- structure(
    class = c(class, "prdcurve_message", "message", "condition"),
    list(message = paste0(text, "\n"), call = NULL, condition = original))
  message(cnd)
}

#' A condition's text as bullets: a named character vector, "" for the
#' header, "i", "x", "*", "!", "v" for the bullets (cli's names). rlang's
#' conditions keep them (message + body); others are one header, split at
#' cli's bullet symbols, with wrapped lines joined.
#' @noRd
cnd_bullets <- function(cnd) {
  msg <- cnd$message
  if (!is.null(cnd$body) || length(msg) > 1L || !is.null(names(msg))) {
    out <- c(msg, cnd$body, cnd$footer)
    nm <- names(out)
    if (is.null(nm)) nm <- rep("", length(out))
    nm[is.na(nm)] <- ""
    nm[seq_along(msg)][nm[seq_along(msg)] == "" & seq_along(msg) > 1L] <- "*"
    return(stats::setNames(as.character(out), nm))
  }
  lines <- strsplit(sub("\n+$", "", paste(msg, collapse = "\n")), "\n",
                    fixed = TRUE)[[1]]
  marks <- c("\u2716" = "x", "\u2139" = "i", "\u2022" = "*", "!" = "!",
             "\u2714" = "v", "x" = "x", "i" = "i", "*" = "*", "v" = "v")
  out <- character()
  nm <- character()
  for (line in lines) {
    first <- substr(line, 1L, 1L)
    if (first %in% names(marks) && substr(line, 2L, 2L) == " " &&
        (length(out) || !first %in% c("x", "i", "v"))) {
      out <- c(out, substring(line, 3L))
      nm <- c(nm, marks[[first]])
    } else if (length(out) && (startsWith(line, "  ") || nm[length(nm)] == "")) {
      out[length(out)] <- paste(out[length(out)], trimws(line))
    } else {
      out <- c(out, line)
      nm <- c(nm, "")
    }
  }
  stats::setNames(out, nm)
}

#' Rewrite bullets for the command line: R arguments and calls become
#' flags and files (cli_flag_table()), `real`/`generated` the files given;
#' a bullet of advice ("i") that keeps R syntax (no command-line form) or
#' advises what is already in use is dropped (clause by clause: "Use A, or
#' B").
#' @noRd
cli_translate <- function(bullets, opt) {
  out <- vapply(bullets, cli_rewrite, character(1), opt = opt,
                USE.NAMES = FALSE)
  names(out) <- names(bullets)
  advice <- names(out) %in% c("i", "*")
  keep <- rep(TRUE, length(out))
  for (j in which(advice)) {
    text <- cli_drop_in_use(out[[j]], opt)
    if (!nzchar(text) || cli_has_r_syntax(text)) keep[j] <- FALSE else out[[j]] <- text
  }
  out[keep]
}

#' One bullet's text rewritten (see cli_translate()).
#' @noRd
cli_rewrite <- function(text, opt) {
  tab <- cli_flag_table()
  files <- cli_files(opt)
  # `generated$label` and `generated[[2]]` name one file
  text <- gsub_fun("`generated(\\$|\\[\\[)\"?([^`\"\\]]+)\"?(\\]\\])?`", text,
                   function(m) {
                     label <- m[3]
                     f <- files$generated[label]
                     if (is.na(f) && grepl("^[0-9]+$", label)) {
                       f <- files$generated[as.integer(label)]
                     }
                     if (is.na(f)) paste0("`", label, "`") else paste0("`", f, "`")
                   })
  # generated$label outside code spans (cli's plain lists)
  for (label in names(files$generated)) {
    text <- gsub(paste0("(^|[ (])generated\\$\\Q", label, "\\E(?![A-Za-z0-9_.])"),
                 paste0("\\1", files$generated[[label]]), text, perl = TRUE)
  }
  # `arg = value` spans
  text <- gsub_fun("`([A-Za-z_.][A-Za-z0-9_.]*) = ([^`]+)`", text, function(m) {
    cli_flag_value(m[2], m[3], tab, fallback = m[1])
  })
  # `arg` = value (a value after a code span: `k` = 100,000)
  text <- gsub_fun("`([A-Za-z_.][A-Za-z0-9_.]*)` = ([-0-9.,e+]*[0-9])", text,
                   function(m) {
                     cli_flag_value(m[2], m[3], tab, fallback = m[1])
                   })
  # `arg`, `fn()`
  text <- gsub_fun("`([A-Za-z_.][A-Za-z0-9_.]*(\\(\\))?)`", text, function(m) {
    name <- m[2]
    if (name == "real") return(paste0("`", files$real, "`"))
    if (name == "generated") return(files$generated_text)
    row <- match(name, tab$arg)
    if (is.na(row)) return(m[1])
    paste0("`", tab$flag[row], "`")
  })
  # what the rewriting made redundant: "`--standardize` (`--standardize`
  # on the command line)"
  text <- gsub(" *\\([^()]*on the command line\\)", "", text)
  text
}

#' `arg = value` as a flag: "--k 40", "--method knn", "--open", "no
#' --bandwidth" for `bandwidth = NULL` (the default, the flag left out), or
#' the span unchanged when `arg` has no flag.
#' @noRd
cli_flag_value <- function(arg, value, tab, fallback) {
  row <- match(arg, tab$arg)
  if (is.na(row)) return(fallback)
  value <- trimws(value)
  if (identical(value, "NULL") && is.na(tab$on[row])) {
    return(paste0("no `", tab$flag[row], "`"))
  }
  if (!is.na(tab$on[row])) {
    if (identical(value, tab$on[row])) return(paste0("`", tab$flag[row], "`"))
    if (identical(value, tab$off[row])) return(paste0("no `", tab$flag[row], "`"))
    return(fallback)
  }
  value <- gsub("^c\\(|\\)$", "", value)
  value <- gsub("\"", "", value)
  value <- gsub(", *", ",", value)
  # numbers as typed: 100,000 -> 100000
  if (grepl("^[-0-9.,e+]+$", value) && grepl("[0-9],[0-9]{3}", value)) {
    value <- gsub(",", "", value)
  }
  paste0("`", tab$flag[row], " ", value, "`")
}

#' The files of a run, as the user gave them: the real file, the generated
#' files by label, and how to name "the generated files" together.
#' @noRd
cli_files <- function(opt) {
  spec <- function(f) paste0(f$path, if (!is.null(f$member)) paste0(":", f$member))
  real <- if (!is.null(opt$real)) spec(opt$real) else "REAL"
  gen <- vapply(opt$generated, spec, character(1))
  if (!length(gen)) gen <- stats::setNames(character(), character())
  text <- if (length(gen) == 1L) paste0("`", gen, "`") else
    if (length(gen) <= 3L) paste(paste0("`", gen, "`"), collapse = ", ") else
      "the generated files"
  list(real = real, generated = gen, generated_text = text)
}

#' Drop the clauses of an advice that name a flag value already in use
#' (`--method tightest` when tightest runs, `--standardize` when set),
#' clauses being split at ", or " and "; or ".
#' @noRd
cli_drop_in_use <- function(text, opt) {
  clauses <- strsplit(text, "(,|;) or ", perl = TRUE)[[1]]
  in_use <- cli_in_use(opt)
  used <- vapply(clauses, function(cl) {
    spans <- regmatches(cl, gregexpr("`--[a-z-]+( [^`]+)?`", cl))[[1]]
    length(spans) > 0L && all(gsub("`", "", spans) %in% in_use)
  }, logical(1), USE.NAMES = FALSE)
  if (!any(used)) return(text)
  kept <- clauses[!used]
  if (!length(kept)) return("")
  out <- paste(kept, collapse = ", or ")
  out <- sub("[ ,;]*$", "", out)
  if (!grepl("[.!?)]$", out)) out <- paste0(out, ".")
  paste0(toupper(substr(out, 1L, 1L)), substring(out, 2L))
}

#' The flags of a run as text: "--method tightest", "--k 5",
#' "--standardize", ...
#' @noRd
cli_in_use <- function(opt) {
  c(paste("--method", opt$method),
    if (!is.null(opt$k)) paste("--k", format(opt$k, scientific = FALSE)),
    if (!is.null(opt$split)) paste("--split", format(opt$split)),
    if (isTRUE(opt$replicates > 0)) c("--replicates",
                                     paste("--replicates", opt$replicates)),
    if (identical(opt$standardize, "real")) "--standardize",
    if (identical(opt$closed, FALSE)) "--open",
    if (isTRUE(opt$metrics)) "--metrics",
    if (!is.null(opt$compare)) "--compare")
}

#' Whether a text still shows R syntax: a call `f()`, an `arg = value`
#' span, or an R function call in a code span.
#' @noRd
cli_has_r_syntax <- function(text) {
  if (grepl("`[A-Za-z_.][A-Za-z0-9_.]* = [^`]*`", text)) return(TRUE)
  # a call of an R function (not `np.save(path, x.T)`, NumPy's)
  calls <- regmatches(text, gregexpr("`[A-Za-z_.][A-Za-z0-9_.]*\\(", text))[[1]]
  fns <- sub("^`", "", sub("\\($", "", calls))
  any(vapply(fns, exists, logical(1), envir = asNamespace("prdcurve")))
}

#' Bullets as the lines printed: the header, then "  x ...", "  i ..."
#' @noRd
cli_text <- function(bullets, lead = 19L) {
  sym <- cli::symbol
  marks <- c(x = sym$cross, i = sym$info, "*" = sym$bullet, "!" = "!",
             v = sym$tick)
  nm <- names(bullets)
  if (is.null(nm)) nm <- rep("", length(bullets))
  # wrapped at 80 columns, the first line after `lead` characters (19: a
  # warning's "prdcurve: warning: "; 0: a message)
  lines <- vapply(seq_along(bullets), function(j) {
    if (nm[j] == "") {
      wrapped <- strwrap(paste0(strrep("x", lead), bullets[[j]]), width = 80)
      wrapped[1] <- substring(wrapped[1], lead + 1L)
      return(paste(wrapped, collapse = "\n"))
    }
    mark <- if (nm[j] %in% names(marks)) marks[[nm[j]]] else marks[["*"]]
    paste(strwrap(bullets[[j]], width = 80, indent = 0, exdent = 4,
                  prefix = "", initial = paste0("  ", mark, " ")),
          collapse = "\n")
  }, character(1))
  paste(lines, collapse = "\n")
}

#' gsub() with a function of each match's groups (the whole match first)
#' @noRd
gsub_fun <- function(pattern, text, fun) {
  m <- gregexpr(pattern, text, perl = TRUE)[[1]]
  if (m[1] == -1L) return(text)
  pieces <- regmatches(text, list(m))[[1]]
  repl <- vapply(pieces, function(p) {
    fun(regmatches(p, regexec(pattern, p, perl = TRUE))[[1]])
  }, character(1), USE.NAMES = FALSE)
  regmatches(text, list(m)) <- list(repl)
  text
}
