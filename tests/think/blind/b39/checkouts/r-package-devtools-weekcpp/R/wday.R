#' ISO weekday (Monday = 1)
#' @param x A Date vector.
#' @export
iso_wday <- function(x) iso_wday_cpp(as.integer(unclass(as.Date(x))))
