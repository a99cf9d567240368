# frozen_string_literal: true

module RateGate
  class Bucket
    attr_reader :capacity, :refill_per_second

    def initialize(capacity:, refill_per_second:, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
      @capacity = capacity
      @refill_per_second = refill_per_second.to_f
      @clock = clock
      @tokens = capacity.to_f
      @updated_at = @clock.call
    end

    def take(n = 1)
      refill!
      return false if @tokens < n

      @tokens -= n
      true
    end

    def available
      refill!
      @tokens.floor
    end

    private

    def refill!
      now = @clock.call
      @tokens = [@capacity, @tokens + ((now - @updated_at) * @refill_per_second)].min
      @updated_at = now
    end
  end
end
