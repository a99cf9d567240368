test_that("wx_base_url honours WX_API_URL", {
  withr::local_envvar(WX_API_URL = "http://localhost:9999")
  expect_equal(wx_base_url(), "http://localhost:9999")
})
