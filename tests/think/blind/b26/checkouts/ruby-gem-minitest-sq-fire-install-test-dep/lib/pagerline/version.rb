# frozen_string_literal: true

module Pagerline
  VERSION = "0.3.2"
end
