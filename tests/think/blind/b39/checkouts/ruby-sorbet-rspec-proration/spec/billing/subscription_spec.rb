# frozen_string_literal: true

RSpec.describe Billing::Subscription do
  subject(:sub) do
    described_class.new(plan_cents: 3000, period_start: Date.new(2026, 3, 1), period_end: Date.new(2026, 3, 31))
  end

  it "counts days in the period" do
    expect(sub.days_in_period).to eq(30)
  end
end
