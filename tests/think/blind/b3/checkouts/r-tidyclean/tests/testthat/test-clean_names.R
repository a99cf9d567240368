test_that("names are snake_cased", {
  df <- data.frame(`First Name` = 1, LastName = 2, check.names = FALSE)
  expect_equal(names(clean_names(df)), c("first_name", "last_name"))
})

test_that("duplicate names get suffixes", {
  df <- data.frame(a = 1, A = 2, b = 3)
  out <- clean_names(df)
  expect_equal(names(out), c("a", "a_2", "b"))
})
