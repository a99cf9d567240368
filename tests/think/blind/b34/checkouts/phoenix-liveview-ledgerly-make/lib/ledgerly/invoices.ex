defmodule Ledgerly.Invoices do
  @moduledoc "Invoices and their line items."

  alias Ledgerly.Invoices.Invoice

  @doc "Total of an invoice, VAT included, rounded to pennies."
  def total(%Invoice{lines: lines}) do
    lines
    |> Enum.map(fn l -> Decimal.mult(l.qty, Decimal.mult(l.unit_price, Decimal.add(1, l.vat_rate))) end)
    |> Enum.reduce(Decimal.new(0), &Decimal.add/2)
  end
end
