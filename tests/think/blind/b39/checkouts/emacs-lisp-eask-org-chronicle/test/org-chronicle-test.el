;;; org-chronicle-test.el --- Tests  -*- lexical-binding: t; -*-

(ert-deftest org-chronicle-format-heading-suffix ()
  (let ((org-chronicle-timestamp-position 'suffix))
    (should (string-prefix-p "Standup <" (org-chronicle--format-heading "Standup" 0)))))

;;; org-chronicle-test.el ends here
