(defpackage #:csv-lite/test
  (:use #:cl #:parachute))
(in-package #:csv-lite/test)

(define-test read-simple
  (is equal '(("a" "b") ("1" "2")) (csv-lite:read-csv-string (format nil "a,b~%1,2~%"))))

(define-test read-quoted
  (is equal '(("x,y" "z")) (csv-lite:read-csv-string (format nil "\"x,y\",z~%"))))
