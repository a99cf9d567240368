class ShippingRateCalculator
  DOMESTIC = "NL".freeze
  EU = %w[AT BE DE DK ES FI FR IE IT LU PT SE].freeze

  def initialize(parcel)
    @parcel = parcel
  end

  def call
    return Money.new(5_95, "EUR") if @parcel.destination_country == DOMESTIC

    base = EU.include?(@parcel.destination_country) ? 6_00 : 14_50
    Money.new(base + (per_kg_cents * kilos), "EUR")
  end

  private

  def kilos = (@parcel.weight_grams / 1000.0).ceil
  def per_kg_cents = 1_20
end
