# frozen_string_literal: true

RSpec.describe Ledgerly::Exporters::CsvExporter do
  let(:invoice) do
    instance_double(Billing::Invoice, number: "INV-0042", issued_on: Date.new(2026, 1, 5),
                                      customer_name: "Acme GmbH", total: 1250)
  end

  it "writes a header row and one row per invoice" do
    csv = described_class.new([invoice]).call
    expect(csv.lines.map(&:chomp)).to eq([
      "number,issued_on,customer,total_cents",
      "INV-0042,2026-01-05,Acme GmbH,1250"
    ])
  end
end
