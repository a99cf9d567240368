(ns feeds.parse-test
  (:require [clojure.test :refer [deftest is]]
            [feeds.parse :as parse]))

(deftest rss-item-test
  (let [items (parse/items (slurp "test/fixtures/simple.rss"))]
    (is (= 2 (count items)))
    (is (= "Hello" (:title (first items))))))
