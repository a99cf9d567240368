require "rails_helper"

RSpec.describe ShippingRateCalculator do
  subject(:rate) { described_class.new(parcel).call }

  let(:parcel) { build(:parcel, weight_grams: 1_200, destination_country: "DE") }

  it "charges the EU base rate plus the per-kg rate" do
    expect(rate).to eq(Money.new(8_40, "EUR"))
  end

  context "when the parcel is domestic" do
    let(:parcel) { build(:parcel, weight_grams: 1_200, destination_country: "NL") }

    it { is_expected.to eq(Money.new(5_95, "EUR")) }
  end
end
