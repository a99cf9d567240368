(ns api.handler-test
  (:require [clojure.test :refer [deftest is]]
            [ring.mock.request :as mock]
            [jsonista.core :as j]
            [api.handler :refer [app]]))

(deftest items-route-test
  (let [resp (app (mock/request :get "/items"))]
    (is (= 200 (:status resp)))
    (is (= {"items" []} (j/read-value (:body resp))))))

(deftest unknown-route-test
  (is (= 404 (:status (app (mock/request :get "/nope"))))))
