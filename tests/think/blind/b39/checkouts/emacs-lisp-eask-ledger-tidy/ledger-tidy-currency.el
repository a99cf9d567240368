;;; ledger-tidy-currency.el --- Currency formatting  -*- lexical-binding: t; -*-

;;; Code:

(defconst ledger-tidy-currency-prefix-symbols
  '(("EUR" . "€") ("GBP" . "£") ("USD" . "$"))
  "Currencies whose symbol goes before the amount.")

(defun ledger-tidy--format-amount (amount currency)
  "Format AMOUNT in CURRENCY."
  (let ((sym (cdr (assoc currency ledger-tidy-currency-prefix-symbols))))
    (if sym
        (format "%s%.2f" sym amount)
      (format "%.2f %s" amount currency))))

(provide 'ledger-tidy-currency)
;;; ledger-tidy-currency.el ends here
