#lang racket/base
(require racket/cmdline "count.rkt" "table.rkt")

(define top-n (make-parameter 10))

(module+ main
  (define files
    (command-line
     #:program "tally"
     #:once-each
     [("-n" "--top") n "Show only the top N words" (top-n (string->number n))]
     #:args files files))
  (print-table (take-top (count-words files) (top-n))))
