wx_base_url <- function() {
  Sys.getenv("WX_API_URL", "https://api.acme-weather.dev/v2")
}

wx_key <- function() {
  key <- Sys.getenv("WX_API_KEY")
  if (!nzchar(key)) stop("Set WX_API_KEY.", call. = FALSE)
  key
}
