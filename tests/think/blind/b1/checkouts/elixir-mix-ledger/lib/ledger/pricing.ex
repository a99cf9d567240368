defmodule Ledger.Pricing do
  @moduledoc """
  Price calculation for orders. Discounts are applied in order:
  loyalty first, then volume tiers.
  """
  alias Ledger.Order

  @loyalty_pct %{gold: 5, silver: 3}

  @spec price(Order.t()) :: Decimal.t()
  def price(%Order{} = order) do
    order
    |> base_price()
    |> apply_loyalty(order.customer_tier)
    |> apply_volume(order.units)
  end

  defp base_price(%Order{units: units, unit_price: unit_price}),
    do: Decimal.mult(unit_price, units)

  defp apply_loyalty(amount, tier) when is_map_key(@loyalty_pct, tier),
    do: pct_off(amount, Map.fetch!(@loyalty_pct, tier))

  defp apply_loyalty(amount, _tier), do: amount

  defp apply_volume(amount, units) when units >= 50, do: pct_off(amount, 5)
  defp apply_volume(amount, _units), do: amount

  defp pct_off(amount, pct),
    do: Decimal.mult(amount, Decimal.sub(1, Decimal.div(pct, 100)))
end
