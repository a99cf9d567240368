(defsystem "mailq"
  :version "0.1.0"
  :depends-on ("cl-smtp" "bordeaux-threads" "local-time")
  :components ((:module "src" :components ((:file "package") (:file "queue") (:file "worker"))))
  :in-order-to ((test-op (test-op "mailq/tests"))))

(defsystem "mailq/tests"
  :depends-on ("mailq" "rove")
  :components ((:module "tests" :components ((:file "queue"))))
  :perform (test-op (o c) (symbol-call :rove :run c)))
