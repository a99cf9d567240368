(defpackage #:cl-shorty
  (:use #:cl)
  (:export #:shorten #:resolve #:*app*))
