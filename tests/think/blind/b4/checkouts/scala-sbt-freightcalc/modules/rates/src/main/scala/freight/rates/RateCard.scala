package freight.rates

final case class Parcel(weightKg: BigDecimal, lengthCm: Int, widthCm: Int, heightCm: Int)

object RateCard {
  val VolumetricDivisor = 5000

  def chargeableKg(p: Parcel): BigDecimal = {
    val volumetric = BigDecimal(p.lengthCm * p.widthCm * p.heightCm) / VolumetricDivisor
    p.weightKg.max(volumetric)
  }

  def priceCents(p: Parcel, zone: Zone): Long =
    (zone.baseCents + (chargeableKg(p) * zone.perKgCents).setScale(0, BigDecimal.RoundingMode.CEILING)).toLong
}
