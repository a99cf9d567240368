#lang info
(define collection "slugify")
(define deps '("base"))
(define build-deps '("rackunit-lib" "scribble-lib" "racket-doc"))
(define scribblings '(("scribblings/slugify.scrbl" ())))
(define pkg-desc "Turn arbitrary strings into URL slugs")
(define version "0.4")
(define test-omit-paths '("scribblings"))
