# frozen_string_literal: true

module Lexiq
  VERSION = "0.3.2"
end
