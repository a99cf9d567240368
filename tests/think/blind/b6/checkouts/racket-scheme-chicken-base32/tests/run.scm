(import test base32)

(test-group "base32 rfc4648 vectors"
  (test "" (base32-encode ""))
  (test "MY======" (base32-encode "f"))
  (test "MZXW6YTBOI======" (base32-encode "foobar"))
  (test "foobar" (base32-decode "MZXW6YTBOI======")))

(test-exit)
