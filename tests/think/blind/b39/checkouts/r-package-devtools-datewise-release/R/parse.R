#' Parse a date string in several common formats
#' @export
parse_date <- function(x) {
  out <- rep(as.Date(NA), length(x))
  iso_week <- grepl("^[0-9]{4}-W[0-9]{2}$", x)
  out[iso_week] <- parse_iso_week(x[iso_week])
  out[!iso_week] <- as.Date(x[!iso_week], tryFormats = c("%Y-%m-%d", "%d/%m/%Y"))
  out
}
