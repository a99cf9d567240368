test_that("parse_date handles ISO dates", {
  expect_equal(parse_date("2024-02-10"), as.Date("2024-02-10"))
})

test_that("parse_date handles ISO weeks", {
  expect_equal(parse_date("2024-W01"), as.Date("2024-01-01"))
})
