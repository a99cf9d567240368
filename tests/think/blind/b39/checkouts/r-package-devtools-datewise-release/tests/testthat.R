library(testthat)
library(datewise)

test_check("datewise")
