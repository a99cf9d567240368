require "test_helper"

class SubscriptionTest < ActiveSupport::TestCase
  test "active scope excludes cancelled subscriptions" do
    assert_not_includes Subscription.active, subscriptions(:cancelled)
  end

  test "next_billing_on advances by the plan interval" do
    sub = subscriptions(:monthly)
    assert_equal sub.current_period_end + 1.month, sub.next_billing_on
  end
end
