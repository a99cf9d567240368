package freight.rates

import org.scalatest.funsuite.AnyFunSuite

class RateCardSpec extends AnyFunSuite {
  test("actual weight wins for dense parcels") {
    assert(RateCard.chargeableKg(Parcel(BigDecimal(10), 20, 20, 20)) == BigDecimal(10))
  }
  test("volumetric weight wins for bulky parcels") {
    assert(RateCard.chargeableKg(Parcel(BigDecimal(1), 50, 40, 30)) == BigDecimal(12))
  }
  test("domestic price") {
    assert(RateCard.priceCents(Parcel(BigDecimal(2), 10, 10, 10), Zone.Domestic) == 690)
  }
}
