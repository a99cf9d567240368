library(testthat)
library(wxclient)

test_check("wxclient")
