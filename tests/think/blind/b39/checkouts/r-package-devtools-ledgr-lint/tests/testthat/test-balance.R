test_that("ledger_balance sums per account", {
  e <- data.frame(
    account = c("cash", "cash", "sales"),
    amount = c(100, -40, 60),
    status = "posted",
    date = as.Date("2025-01-01") + 0:2
  )
  b <- ledger_balance(e)
  expect_equal(b$balance[b$account == "cash"], 60)
})

test_that("as_of filters by date", {
  e <- data.frame(account = "cash", amount = c(10, 20), status = "posted",
                  date = as.Date(c("2025-01-01", "2025-02-01")))
  expect_equal(ledger_balance(e, as_of = as.Date("2025-01-15"))$balance, 10)
})
