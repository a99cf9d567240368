;;; org-linkify-test.el --- Tests for org-linkify  -*- lexical-binding: t; -*-

(require 'ert)
(require 'org-linkify)

(ert-deftest org-linkify-test-rfc ()
  (with-temp-buffer
    (org-mode)
    (insert "See RFC 9110 for details.")
    (org-linkify-buffer)
    (should (equal (buffer-string)
                   "See [[https://www.rfc-editor.org/rfc/rfc9110][RFC 9110]] for details."))))

(ert-deftest org-linkify-test-skip-existing ()
  (with-temp-buffer
    (org-mode)
    (insert "[[https://www.rfc-editor.org/rfc/rfc9110][RFC 9110]]")
    (org-linkify-buffer)
    (should (equal (buffer-string)
                   "[[https://www.rfc-editor.org/rfc/rfc9110][RFC 9110]]"))))

;; GH references need the repository filled in.
(ert-deftest org-linkify-test-gh ()
  (let ((org-linkify-github-repo "hmolnar/org-linkify"))
    (with-temp-buffer
      (org-mode)
      (insert "See GH-12.")
      (org-linkify-buffer)
      (should (equal (buffer-string)
                     "See [[https://github.com/hmolnar/org-linkify/issues/12][GH-12]].")))))

;;; org-linkify-test.el ends here
