library(testthat)
library(tsclean)

test_check("tsclean")
