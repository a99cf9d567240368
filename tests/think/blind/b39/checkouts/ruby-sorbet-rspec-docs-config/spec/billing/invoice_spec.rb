# frozen_string_literal: true

RSpec.describe Billing::Invoice do
  def item(cents, primary: false)
    Billing::LineItem.new(sku: "A", quantity: 1, unit_cents: cents, primary: primary)
  end

  describe "#headline_total" do
    it "adds the surcharge to the primary item" do
      invoice = described_class.new(line_items: [item(1000, primary: true)], surcharge_cents: 250)
      expect(invoice.headline_total).to eq(1250)
    end
  end
end
