package fx

final case class Currency(code: String) extends AnyVal

/** Rates quoted against a single base currency (ECB publishes EUR-based rates). */
final case class RateTable(base: Currency, rates: Map[Currency, BigDecimal]):
  def rate(c: Currency): Option[BigDecimal] =
    if c == base then Some(BigDecimal(1)) else rates.get(c)
