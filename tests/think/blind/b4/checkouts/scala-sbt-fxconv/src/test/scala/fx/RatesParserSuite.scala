package fx

class RatesParserSuite extends munit.FunSuite:
  test("parses ECB json") {
    val json = """{"base":"EUR","rates":{"USD":1.0832,"GBP":0.8561}}"""
    val t = RatesParser.fromEcbJson(json).toOption.get
    assertEquals(t.rate(Currency("GBP")), Some(BigDecimal("0.8561")))
    assertEquals(t.rate(Currency("EUR")), Some(BigDecimal(1)))
  }

  test("reports malformed json") {
    assert(RatesParser.fromEcbJson("{").isLeft)
  }
