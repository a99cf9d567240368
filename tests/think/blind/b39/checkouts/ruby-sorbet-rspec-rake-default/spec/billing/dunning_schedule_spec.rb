# frozen_string_literal: true

RSpec.describe Billing::DunningSchedule do
  it "sends the first reminder after the grace period" do
    schedule = described_class.new(grace_days: 7)
    expect(schedule.first_reminder_on(Date.new(2026, 3, 1))).to eq(Date.new(2026, 3, 8))
  end
end
