(ns shop.pricing)

(defn line-total [{:keys [unit-price qty]}]
  (* unit-price qty))

(defn subtotal [lines]
  (reduce + 0M (map line-total lines)))

(defn discount [customer amount]
  (if (:member? customer)
    (* amount 0.05M)
    0M))

(defn order-total [customer lines]
  (let [s (subtotal lines)]
    (- s (discount customer s))))
