;;; org-linkify.el --- Turn bare references into Org links  -*- lexical-binding: t; -*-

;; Copyright (C) 2025  Hanna Molnar

;; Author: Hanna Molnar <hanna@molnar.dev>
;; Version: 0.4.1
;; Package-Requires: ((emacs "27.1") (org "9.4"))
;; Keywords: outlines, convenience
;; URL: https://github.com/hmolnar/org-linkify

;;; Commentary:

;; `org-linkify-buffer' turns references such as GH-123 or RFC 9110
;; into Org links according to `org-linkify-rules'.

;;; Code:

(require 'org)
(require 'subr-x)

(defgroup org-linkify nil
  "Turn bare references into Org links."
  :group 'org)

(defcustom org-linkify-rules
  '(("\\bGH-\\([0-9]+\\)\\b" . "https://github.com/%s/issues/\\1")
    ("\\bRFC ?\\([0-9]+\\)\\b" . "https://www.rfc-editor.org/rfc/rfc\\1"))
  "Alist of (REGEXP . URL-TEMPLATE)."
  :type '(alist :key-type regexp :value-type string))

(defun org-linkify--already-linked-p (pos)
  "Return non-nil if POS is inside an Org link."
  (save-excursion
    (goto-char pos)
    (org-in-regexp org-link-any-re)))

(defun org-linkify-region (beg end)
  "Linkify references between BEG and END."
  (interactive "r")
  (save-excursion
    (dolist (rule org-linkify-rules)
      (goto-char beg)
      (while (re-search-forward (car rule) end t)
        (unless (org-linkify--already-linked-p (match-beginning 0))
          (let ((url (replace-regexp-in-string "\\\\1" (match-string 1) (cdr rule) t t)))
            (replace-match (format "[[%s][%s]]" url (match-string 0)) t t)))))))

(defun org-linkify-buffer ()
  "Linkify references in the whole buffer."
  (interactive)
  (org-linkify-region (point-min) (point-max)))

(provide 'org-linkify)
;;; org-linkify.el ends here
