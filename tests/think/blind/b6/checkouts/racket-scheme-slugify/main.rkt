#lang racket/base
(require racket/string racket/contract)
(provide (contract-out [slugify (->* (string?) (#:sep string?) string?)]))

(define (slugify s #:sep [sep "-"])
  (define lowered (string-downcase s))
  (define cleaned (regexp-replace* #px"[^a-z0-9]+" lowered " "))
  (string-join (string-split cleaned) sep))
