test_that("iso_wday matches format %u", {
  d <- as.Date("2024-01-01") + 0:13
  expect_equal(iso_wday(d), as.integer(format(d, "%u")))
})
