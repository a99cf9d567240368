defmodule Ledger.PricingTest do
  use ExUnit.Case, async: true

  alias Ledger.{Order, Pricing}

  defp order(attrs) do
    struct!(Order, Map.merge(%{units: 1, unit_price: Decimal.new("10.00"), customer_tier: nil}, attrs))
  end

  test "no discounts below the volume tier" do
    assert Pricing.price(order(%{units: 10})) == Decimal.new("100.00")
  end

  test "gold customers get 5% loyalty discount" do
    assert Decimal.equal?(Pricing.price(order(%{units: 10, customer_tier: :gold})), Decimal.new("95.00"))
  end

  test "50+ units get the volume discount after loyalty" do
    price = Pricing.price(order(%{units: 50, customer_tier: :silver}))
    assert Decimal.equal?(price, Decimal.new("460.75"))
  end
end
