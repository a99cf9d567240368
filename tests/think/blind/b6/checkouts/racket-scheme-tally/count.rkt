#lang racket/base
(require racket/string racket/list racket/file)
(provide count-words take-top)

(define (count-words files)
  (for*/fold ([h (hash)]) ([f (in-list files)]
                           [w (in-list (string-split (string-downcase (file->string f))))])
    (hash-update h w add1 0)))

(define (take-top h n)
  (take (sort (hash->list h) > #:key cdr) (min n (hash-count h))))
