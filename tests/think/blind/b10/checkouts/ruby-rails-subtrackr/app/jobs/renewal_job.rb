class RenewalJob < ApplicationJob
  queue_as :billing

  def perform(date = Date.current)
    Subscription.active.where(current_period_end: date).find_each do |sub|
      Billing::Renewer.new(sub).call
    end
  end
end
