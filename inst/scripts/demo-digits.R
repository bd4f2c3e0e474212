# The class-subset experiment on the bundled `digits` data (Simon, Webster
# and Rabin 2019, section 5.1): P holds half of the images of digits 0-4,
# Q half of the images of the first q digits, q = 1, 3, 5, 7, 9. The true
# PR curve is a rectangle (maximal precision min(1, 5/q), maximal recall
# min(1, q/5) for equal class sizes), and each estimator is scored by its
# intersection over union (IoU) with that rectangle.
#
# Usage: Rscript demo-digits.R [outdir]      (outdir defaults to "demo")
# Writes <outdir>/prd-digits.csv (q, method, lambda, precision, recall; the
# rectangles as method "truth") and <outdir>/prd-digits.png, and prints the
# summary table (max_precision, max_recall, auc, iou) to stdout.
#
# `make demo` runs this script from the package root after installing.

start <- proc.time()[["elapsed"]]
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args) >= 1L && nzchar(args[1])) args[1] else "demo"
dir.create(outdir, showWarnings = FALSE, recursive = TRUE)

suppressPackageStartupMessages(library(prdcurve))
data("digits", package = "prdcurve", envir = environment())

methods <- c("tightest", "knn", "kde", "ipr", "coverage")
set.seed(2026)
res <- prd_class_subset(as.matrix(digits[, 1:64]), digits$digit,
                        q = c(1, 3, 5, 7, 9), method = methods)

# ---- the curves, tidy --------------------------------------------------------
curves <- as.data.frame(res$curves)[, c("q", "method", "lambda", "precision",
                                        "recall")]
csv <- file.path(outdir, "prd-digits.csv")
utils::write.csv(curves, csv, row.names = FALSE)

# ---- the figure --------------------------------------------------------------
png_file <- file.path(outdir, "prd-digits.png")
if (requireNamespace("ggplot2", quietly = TRUE)) {
  curves$method <- factor(curves$method, levels = c(methods, "truth"))
  curves <- curves[order(curves$q, curves$method, curves$lambda), ]
  curves$panel <- factor(paste0("q = ", curves$q),
                         levels = paste0("q = ", sort(unique(curves$q))))
  est <- curves[curves$method != "truth", ]
  truth <- curves[curves$method == "truth", ]
  p <- ggplot2::ggplot(est, ggplot2::aes(x = .data$recall,
                                         y = .data$precision,
                                         colour = .data$method,
                                         linetype = .data$method)) +
    ggplot2::geom_path(linewidth = 0.6) +
    ggplot2::geom_path(data = truth, colour = "black", linetype = "dashed",
                       linewidth = 0.5) +
    ggplot2::facet_wrap(~panel, nrow = 1) +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"),
                                expand = c(0, 0.02)) +
    ggplot2::scale_y_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                expand = c(0, 0.02)) +
    ggplot2::coord_equal() +
    # readable on white and in greyscale: no yellow, a line type per method
    ggplot2::scale_colour_manual(values = c(tightest = "#D55E00", knn = "#0072B2",
                                            kde = "#009E73", ipr = "#E69F00",
                                            coverage = "#CC79A7")) +
    ggplot2::scale_linetype_manual(values = c(tightest = "solid", knn = "longdash",
                                              kde = "dotdash", ipr = "dotted",
                                              coverage = "twodash")) +
    ggplot2::labs(
      x = "recall", y = "precision", colour = "method", linetype = "method",
      title = "Class-subset experiment on digits",
      subtitle = "P: digits 0-4; Q: digits 0 to q-1; dashed: the true rectangle"
    ) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "bottom",
                   panel.spacing = ggplot2::unit(0.8, "lines"))
  ggplot2::ggsave(png_file, p, width = 10, height = 3.4, dpi = 120)
} else {
  message("ggplot2 is not installed: skipping ", png_file)
  png_file <- NULL
}

# ---- the summary -------------------------------------------------------------
tab <- as.data.frame(res$summary)[, c("q", "method", "max_precision",
                                      "max_recall", "auc", "iou")]
# the true rectangles, for reference (area = max_precision x max_recall)
true_rows <- lapply(sort(unique(tab$q)), function(qq) {
  tr <- res$curves[res$curves$q == qq & res$curves$method == "truth", ]
  mp <- tr$precision[tr$lambda == Inf]
  mr <- tr$recall[tr$lambda == 0]
  data.frame(q = qq, method = "truth", max_precision = mp, max_recall = mr,
             auc = mp * mr, iou = 1)
})
tab <- rbind(tab, do.call(rbind, true_rows))
tab <- tab[order(tab$q, match(tab$method, c(methods, "truth"))), ]
cat("Class-subset experiment on digits (P: digits 0-4, Q: digits 0 to q-1,",
    "split = 0.5, set.seed(2026))\n\n")
print(format(tab, digits = 3, nsmall = 3), row.names = FALSE)
cat("\nMean IoU with the true rectangle by method:\n")
print(round(tapply(tab$iou, factor(tab$method, levels = methods), mean), 3))
# the default curve, where it stands: an estimate of an upper bound, read
# from each family's curve on halves of the evaluation rows
info <- prd_curve_info(res$curves)
tight <- which(info$method == "tightest") # one per q, in order of q
qs <- sort(unique(curves$q))
rows <- vapply(tight, function(i) {
  min(info$n_eval_real[i], info$n_eval_generated[i]) %/% 2
}, numeric(1))
single <- vapply(tight, function(i) {
  identical(info$details[[i]]$choice, "single")
}, logical(1))
note <- paste0(
  "\"tightest\", the default, estimates an upper bound of the true curve ",
  "from the families' curves (?prd_curve): here its halves hold ",
  paste(range(rows), collapse = " to "), " evaluation rows of the smaller ",
  "set", if (any(single)) paste0(", few enough at q = ",
    paste(qs[single], collapse = ", "),
    " that each split reads one family there (details$choice)"),
  ". On so few rows its noise can put it below the truth, or above ",
  "a single family's curve: over 30 seeds its mean IoU is 0.933 against ",
  "knn's 0.943, and its AUC varies more across seeds (0.013 against ",
  "0.011; every curve here averages 5 random splits, the default below ",
  "1,000 rows a set; bench/tightest-choice.R). Even the best of its ",
  "families at each q, chosen with the truth, reads 0.948. knn suits these few, well ",
  "separated classes; on the Gaussian scenarios of the validity suite at ",
  "5,000 points per set and d = 2,048 it reads 0.39 from the true AUC on ",
  "average, the default 0.04 (bench/results.md).")
cat("\n", paste(strwrap(note, 78), collapse = "\n"), "\n", sep = "")
cat("\nWrote", csv, "(", nrow(curves), "rows )")
if (!is.null(png_file)) cat(" and", png_file)
cat(sprintf("\nElapsed: %.1f seconds\n", proc.time()[["elapsed"]] - start))
