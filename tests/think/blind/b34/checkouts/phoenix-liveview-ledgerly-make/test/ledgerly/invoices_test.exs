defmodule Ledgerly.InvoicesTest do
  use Ledgerly.DataCase, async: true

  alias Ledgerly.Invoices
  import Ledgerly.InvoicesFixtures

  describe "total/1" do
    test "sums line items including VAT" do
      invoice = invoice_fixture(lines: [%{qty: 2, unit_price: "8.33", vat_rate: "0.20"}])
      assert Invoices.total(invoice) == Decimal.new("19.99")
    end

    test "an invoice without lines totals zero" do
      invoice = invoice_fixture(lines: [])
      assert Decimal.equal?(Invoices.total(invoice), 0)
    end
  end
end
