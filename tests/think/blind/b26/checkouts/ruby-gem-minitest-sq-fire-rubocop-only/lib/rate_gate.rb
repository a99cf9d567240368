# frozen_string_literal: true

require_relative "rate_gate/version"
require_relative "rate_gate/bucket"

module RateGate
  class Error < StandardError; end
end
