;;; org-chronicle.el --- Keep a dated log in Org  -*- lexical-binding: t; -*-

;; Author: Dev <dev@example.org>
;; Version: 0.6.1
;; Package-Requires: ((emacs "27.1") (org "9.4"))

;;; Code:

(require 'org)

(defcustom org-chronicle-timestamp-position 'suffix
  "Where to put the timestamp in new entries."
  :type '(choice (const prefix) (const suffix))
  :group 'org)

(defun org-chronicle--format-heading (title time)
  "Return heading text for TITLE stamped with TIME."
  (let ((stamp (format-time-string (org-time-stamp-format t t) time)))
    (if (eq org-chronicle-timestamp-position 'suffix)
        (concat title " " stamp)
      (concat title " " stamp))))

(provide 'org-chronicle)
;;; org-chronicle.el ends here
