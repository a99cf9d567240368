(ns jobs.util)

(defn pluralize [n word]
  (str n " " word (when (not= 1 n) "s")))
