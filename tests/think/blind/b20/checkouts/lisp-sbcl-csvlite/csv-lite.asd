(defsystem "csv-lite"
  :description "Small RFC 4180 CSV reader/writer"
  :version "1.2.1"
  :license "BSD-2-Clause"
  :components ((:module "src" :components ((:file "package") (:file "reader") (:file "writer"))))
  :in-order-to ((test-op (test-op "csv-lite/test"))))

(defsystem "csv-lite/test"
  :depends-on ("csv-lite" "parachute")
  :components ((:module "t" :components ((:file "main"))))
  :perform (test-op (o c) (symbol-call :parachute :test :csv-lite/test)))
