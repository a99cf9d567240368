(defpackage #:cl-shorty/tests
  (:use #:cl #:fiveam #:cl-shorty))
(in-package #:cl-shorty/tests)

(def-suite shorty-tests)
(in-suite shorty-tests)

(test shorten-returns-code
  (let ((code (shorten "https://example.com/a/very/long/path")))
    (is (= 7 (length code)))))

(test resolve-unknown-code
  (is (null (resolve "zzzzzzz"))))
