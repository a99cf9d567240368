library(testthat)
library(fastweek)

test_check("fastweek")
