# frozen_string_literal: true

module FastFNV
  VERSION = "0.2.0"
end
