(defproject api "0.3.2-SNAPSHOT"
  :description "Internal inventory HTTP API"
  :dependencies [[org.clojure/clojure "1.11.4"]
                 [ring/ring-core "1.12.2"]
                 [ring/ring-jetty-adapter "1.12.2"]
                 [metosin/reitit-ring "0.7.2"]
                 [metosin/jsonista "0.3.10"]]
  :main ^:skip-aot api.main
  :target-path "target/%s"
  :profiles {:dev {:dependencies [[ring/ring-mock "0.4.0"]]}
             :uberjar {:aot :all}})
