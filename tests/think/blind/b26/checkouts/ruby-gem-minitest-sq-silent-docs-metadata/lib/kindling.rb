# frozen_string_literal: true

require_relative "kindling/version"
require_relative "kindling/warmer"
