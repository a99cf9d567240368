require "spec"
require "../src/csvkit"
