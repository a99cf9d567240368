(define-module (ini writer)
  #:use-module (ice-9 format)
  #:export (ini-write))

;; TODO: escape values
(define (ini-write alist port)
  "Inverse of ini-parse: write ALIST to PORT."
  (for-each
   (lambda (section)
     (format port "[~a]~%" (car section))
     (for-each (lambda (kv) (format port "~a=~a~%" (car kv) (cdr kv)))
               (cdr section)))
   alist))
