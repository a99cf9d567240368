# frozen_string_literal: true

module Kindling
  VERSION = "0.3.2"
end
