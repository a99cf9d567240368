(ns shop.pricing-test
  (:require [clojure.test :refer [deftest is testing]]
            [shop.pricing :as pricing]))

(def lines [{:unit-price 10M :qty 3} {:unit-price 2.5M :qty 4}])

(deftest subtotal-test
  (is (= 40.0M (pricing/subtotal lines))))

(deftest discount-test
  (testing "members get 5%"
    (is (= 2.000M (pricing/discount {:member? true} 40.0M))))
  (testing "non-members get nothing"
    (is (= 0M (pricing/discount {} 40.0M)))))

(deftest order-total-test
  (is (= 38.000M (pricing/order-total {:member? true} lines))))
