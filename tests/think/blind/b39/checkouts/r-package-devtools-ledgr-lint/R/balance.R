#' Balance per account
#'
#' @param entries A ledger data frame with `account`, `amount` and `status` columns.
#' @param as_of Optional date; only entries on or before it are counted.
#' @return A data frame with one row per account and its `balance`.
#' @export
ledger_balance <- function(entries, as_of = NULL) {
  if (!is.null(as_of)) {
    entries <- entries[entries$date <= as_of, , drop = FALSE]
  }
  out <- stats::aggregate(amount ~ account, data = entries, FUN = sum)
  names(out)[names(out) == "amount"] <- "balance"
  out
}
