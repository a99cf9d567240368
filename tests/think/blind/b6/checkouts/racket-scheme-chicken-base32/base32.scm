(module base32 (base32-encode base32-decode)
  (import scheme (chicken base) (chicken string) (chicken bitwise) srfi-13)

  (define alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

  (define (encode-with alpha str) ...)   ; elided in fixture
  (define (decode-with alpha str) ...)   ; elided in fixture

  (define (base32-encode str)
    (encode-with alphabet str))

  (define (base32-decode str)
    (decode-with alphabet str)))
