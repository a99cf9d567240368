test_that("live forecast endpoint answers", {
  skip_if_not(nzchar(Sys.getenv("WX_API_KEY")), "no API key")
  out <- wx_forecast(52.5, 13.4, days = 1)
  expect_true("temp" %in% names(out))
})
