# frozen_string_literal: true

require "webmock/rspec"
require_relative "../lib/ledgerly"

RSpec.configure do |config|
  config.expect_with :rspec do |c|
    c.include_chain_clauses_in_custom_matcher_descriptions = true
  end
  config.disable_monkey_patching!
  config.order = :random
  Kernel.srand config.seed
end
