;;; test-helper.el --- Helpers for org-chronicle tests  -*- lexical-binding: t; -*-

(require 'ert)
(require 'org)

(let ((root (file-name-directory (directory-file-name (file-name-directory load-file-name)))))
  (add-to-list 'load-path root)
  (load (expand-file-name "org-chronicle.el" root) nil nil t))

;;; test-helper.el ends here
