class Subscription < ApplicationRecord
  belongs_to :customer
  belongs_to :plan

  enum :status, { trialing: 0, active: 1, past_due: 2, cancelled: 3 }

  scope :active, -> { where(status: %i[trialing active past_due]) }

  def next_billing_on
    current_period_end + plan.interval_duration
  end
end
