(ns jobs.util-test
  (:require [cljs.test :refer [deftest is]]
            [jobs.util :as util]))

(deftest pluralize-test
  (is (= "1 job" (util/pluralize 1 "job")))
  (is (= "3 jobs" (util/pluralize 3 "job"))))
