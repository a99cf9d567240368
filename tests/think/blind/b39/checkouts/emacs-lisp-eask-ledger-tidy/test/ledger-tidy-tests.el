;;; ledger-tidy-tests.el --- Tests  -*- lexical-binding: t; -*-

(require 'ert)
(require 'ledger-tidy)

(ert-deftest ledger-tidy-currency-symbol-prefix ()
  (should (equal (ledger-tidy--format-amount 12.5 "EUR") "€12.50")))

(ert-deftest ledger-tidy-currency-suffix ()
  (should (equal (ledger-tidy--format-amount 3 "CHF") "3.00 CHF")))

;;; ledger-tidy-tests.el ends here
