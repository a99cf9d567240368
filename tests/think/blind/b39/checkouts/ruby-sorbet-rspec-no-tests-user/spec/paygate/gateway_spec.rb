# frozen_string_literal: true

RSpec.describe Paygate::Gateway do
  let(:merchant) { Paygate::Merchant.new(id: "m_1", api_key: "sk_test_123", currency: "EUR") }

  it "charges in the merchant currency" do
    stub_request(:post, "https://api.stripe.com/v1/payment_intents").to_return(status: 200, body: "{\"id\":\"pi_1\"}")
    expect(described_class.new(merchant).charge(1500).id).to eq("pi_1")
  end
end
