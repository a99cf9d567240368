package fx

import io.circe.parser.parse

object RatesParser:
  def fromEcbJson(json: String): Either[String, RateTable] =
    for
      doc   <- parse(json).left.map(_.message)
      c      = doc.hcursor
      base  <- c.get[String]("base").left.map(_.message)
      rates <- c.get[Map[String, BigDecimal]]("rates").left.map(_.message)
    yield RateTable(Currency(base), rates.map((k, v) => Currency(k) -> v))
