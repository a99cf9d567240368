#' Normalise whitespace and separators in timestamps
#' @export
clean_stamp <- function(x) {
  x <- trimws(x)
  gsub("/", "-", x, fixed = TRUE)
}
