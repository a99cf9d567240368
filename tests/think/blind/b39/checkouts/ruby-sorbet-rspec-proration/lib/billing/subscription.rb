# typed: strict
# frozen_string_literal: true

module Billing
  class Subscription < T::Struct
    extend T::Sig

    const :plan_cents, Integer
    const :period_start, Date
    const :period_end, Date

    sig { returns(Integer) }
    def days_in_period
      (period_end - period_start).to_i
    end
  end
end
