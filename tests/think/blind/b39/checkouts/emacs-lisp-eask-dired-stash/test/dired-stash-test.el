;;; dired-stash-test.el --- Buttercup specs  -*- lexical-binding: t; -*-

(require 'buttercup)
(require 'dired-stash)

(describe "dired-stash-add-file"
  (it "copies the file into the stash directory"
    (let* ((dired-stash-directory (make-temp-file "stash" t))
           (src (make-temp-file "src")))
      (dired-stash-add-file src)
      (expect (file-exists-p (expand-file-name (file-name-nondirectory src) dired-stash-directory))
              :to-be-truthy))))

;;; dired-stash-test.el ends here
