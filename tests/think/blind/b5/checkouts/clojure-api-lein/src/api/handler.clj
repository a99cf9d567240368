(ns api.handler
  (:require [reitit.ring :as ring]
            [jsonista.core :as j]))

(defn- json [status body]
  {:status status
   :headers {"Content-Type" "application/json"}
   :body (j/write-value-as-string body)})

(defn list-items [_req]
  (json 200 {:items []}))

(def app
  (ring/ring-handler
   (ring/router
    [["/items" {:get list-items}]])
   (ring/create-default-handler)))
