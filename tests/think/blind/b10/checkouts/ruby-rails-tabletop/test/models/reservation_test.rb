require "test_helper"

class ReservationTest < ActiveSupport::TestCase
  test "rejects party size above table capacity" do
    r = Reservation.new(table: tables(:two_top), party_size: 3, starts_at: 1.day.from_now)
    assert_not r.valid?
    assert_includes r.errors[:party_size], "exceeds table capacity"
  end
end
