#lang racket/base
(require rackunit slugify)

(test-case "basic"
  (check-equal? (slugify "Hello, World!") "hello-world")
  (check-equal? (slugify "  spaced   out  ") "spaced-out"))

(test-case "custom separator"
  (check-equal? (slugify "a b c" #:sep "_") "a_b_c"))

(test-case "non-ascii is dropped"
  (check-equal? (slugify "Café au lait") "caf-au-lait")
  (check-equal? (slugify "Straße") "stra-e"))

(test-case "digits kept"
  (check-equal? (slugify "Top 10 Lists") "top-10-lists"))
