# frozen_string_literal: true

require "test_helper"

class Kindling::WarmerTest < Minitest::Test
  def test_runs_registered_blocks_in_order
    calls = []
    warmer = Kindling::Warmer.new
    warmer.register(:a) { calls << :a }
    warmer.register(:b) { calls << :b }
    warmer.run
    assert_equal %i[a b], calls
  end
end
