;; Requires a USB loopback adapter on $SERIAL_TEST_PORT (default /dev/ttyUSB0).
(import test serial (chicken process-context))

(define port-path (or (get-environment-variable "SERIAL_TEST_PORT") "/dev/ttyUSB0"))

(test-group "loopback"
  (let ((fd (serial-open port-path)))
    (serial-write fd "ping\n")
    (test "echo" "ping" (serial-read-line fd))
    (serial-close fd)))

(test-exit)
