;;; dired-stash.el --- Stash and restore files from Dired  -*- lexical-binding: t; -*-

;; Author: Dev <dev@example.org>
;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1"))
;; URL: https://github.com/dev/dired-stash

;;; Commentary:

;; Mark files in Dired, stash them, restore them elsewhere.

;;; Code:

(require 'dired)

(defcustom dired-stash-directory (locate-user-emacs-file "dired-stash/")
  "Directory where stashed files are kept."
  :type 'directory
  :group 'dired)

(defvar dired-stash--entries nil
  "List of stashed file names.")

(defun dired-stash-add-file (file)
  "Copy FILE into `dired-stash-directory'."
  (make-directory dired-stash-directory t)
  (copy-file file (expand-file-name (file-name-nondirectory file) dired-stash-directory) t)
  (push (file-name-nondirectory file) dired-stash--entries))

(defun dired-stash--target-dir ()
  "Return the directory to restore into."
  (expand-file-name (dired-current-directory)))

(provide 'dired-stash)
;;; dired-stash.el ends here
