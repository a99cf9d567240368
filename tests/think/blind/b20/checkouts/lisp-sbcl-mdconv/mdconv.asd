(defsystem "mdconv"
  :description "Markdown to HTML converter"
  :version "0.4.2"
  :author "R. Okafor"
  :license "MIT"
  :depends-on ("cl-ppcre" "3bmd")
  :components ((:module "src" :components ((:file "package") (:file "convert"))))
  :in-order-to ((test-op (test-op "mdconv/tests"))))

(defsystem "mdconv/tests"
  :depends-on ("mdconv" "fiveam")
  :components ((:module "tests" :components ((:file "convert"))))
  :perform (test-op (o c) (symbol-call :fiveam :run! :mdconv-tests)))
