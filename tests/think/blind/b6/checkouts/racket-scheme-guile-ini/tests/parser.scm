(use-modules (srfi srfi-64) (ini parser))

(test-begin "parser")

(test-equal "simple section"
  '(("db" ("host" . "x")))
  (ini-read-string "[db]\nhost=x\n"))

(test-equal "section with spaces"
  '(("my section" ("k" . "v")))
  (ini-read-string "[my section]\nk=v\n"))

(test-equal "section name is trimmed"
  '(("db" ("host" . "x")))
  (ini-read-string "[ db ]\nhost=x\n"))

(test-end "parser")
(exit (zero? (test-runner-fail-count (test-runner-get))))
