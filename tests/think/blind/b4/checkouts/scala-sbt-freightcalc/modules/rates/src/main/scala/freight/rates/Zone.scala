package freight.rates

sealed abstract class Zone(val baseCents: Long, val perKgCents: Long)
object Zone {
  case object Domestic extends Zone(450, 120)
  case object EU       extends Zone(900, 310)
  case object World    extends Zone(1800, 720)
}
