require "spec"
require "../src/ghstats"
