# frozen_string_literal: true

module RateGate
  VERSION = "0.3.2"
end
