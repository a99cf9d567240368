# frozen_string_literal: true

require "test_helper"

class RateGate::BucketTest < Minitest::Test
  def setup
    @now = 0.0
    @bucket = RateGate::Bucket.new(capacity: 3, refill_per_second: 1, clock: -> { @now })
  end

  def test_take_until_empty
    3.times { assert @bucket.take }
    refute @bucket.take
  end

  def test_refills_over_time
    3.times { @bucket.take }
    @now += 2
    assert_equal 2, @bucket.available
  end
end
