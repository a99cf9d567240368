library(testthat)
library(tidyclean)

test_check("tidyclean")
