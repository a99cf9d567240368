package httpkit

import scala.concurrent.duration.*

class RetryPolicySuite extends munit.FunSuite:
  val p = RetryPolicy(maxAttempts = 3, base = 100.millis, cap = 1.second)

  test("exponential backoff") {
    assertEquals(p.delayFor(0), Some(100.millis))
    assertEquals(p.delayFor(2), Some(400.millis))
  }

  test("gives up after maxAttempts") {
    assertEquals(p.delayFor(3), None)
  }
