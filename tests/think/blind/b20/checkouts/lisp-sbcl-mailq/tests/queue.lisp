(defpackage #:mailq/tests/queue
  (:use #:cl #:rove #:mailq))
(in-package #:mailq/tests/queue)

(deftest enqueue-dequeue
  (let ((q (make-mail-queue)))
    (enqueue q '(:to "a@example.com" :subject "hi"))
    (ok (equal "a@example.com" (getf (dequeue q) :to)))))
