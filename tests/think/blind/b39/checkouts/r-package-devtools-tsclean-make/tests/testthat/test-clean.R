test_that("clean_stamp swaps slashes", {
  expect_equal(clean_stamp(" 2024/03/01 "), "2024-03-01")
})
