library(testthat)
library(ledgr)

test_check("ledgr")
