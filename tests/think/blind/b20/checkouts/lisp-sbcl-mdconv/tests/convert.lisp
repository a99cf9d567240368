(defpackage #:mdconv/tests (:use #:cl #:fiveam))
(in-package #:mdconv/tests)
(def-suite mdconv-tests)
(in-suite mdconv-tests)
(test heading
  (is (string= "<h1>Hi</h1>" (mdconv:convert-string "# Hi"))))
