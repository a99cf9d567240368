(defsystem "cl-shorty"
  :version "0.3.0"
  :author "Dana Whitfield"
  :license "MIT"
  :depends-on ("ningle" "clack" "cl-ppcre" "jonathan")
  :components ((:module "src"
                :components ((:file "package")
                             (:file "store")
                             (:file "routes"))))
  :in-order-to ((test-op (test-op "cl-shorty/tests"))))

(defsystem "cl-shorty/tests"
  :depends-on ("cl-shorty" "fiveam")
  :components ((:module "tests"
                :components ((:file "routes"))))
  :perform (test-op (o c) (symbol-call :fiveam :run! :shorty-tests)))
