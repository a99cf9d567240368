#lang info
(define collection "tally")
(define deps '("base"))
(define version "0.2")
