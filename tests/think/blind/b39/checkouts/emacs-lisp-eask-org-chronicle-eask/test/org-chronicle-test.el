;;; org-chronicle-test.el --- Tests for org-chronicle  -*- lexical-binding: t; -*-

(require 'ert)
(require 'org-chronicle)

(ert-deftest org-chronicle-format-heading-suffix ()
  (let ((org-chronicle-timestamp-position 'suffix))
    (should (string-prefix-p "Standup <" (org-chronicle--format-heading "Standup" 0)))))

(ert-deftest org-chronicle-format-heading-prefix ()
  :expected-result :failed
  (let ((org-chronicle-timestamp-position 'prefix))
    (should (string-suffix-p "> Standup" (org-chronicle--format-heading "Standup" 0)))))

;;; org-chronicle-test.el ends here
