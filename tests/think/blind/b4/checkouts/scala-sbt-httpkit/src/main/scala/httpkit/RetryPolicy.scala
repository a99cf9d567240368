package httpkit

import scala.concurrent.duration.*

final case class RetryPolicy(maxAttempts: Int, base: FiniteDuration, cap: FiniteDuration):
  def delayFor(attempt: Int): Option[FiniteDuration] =
    if attempt >= maxAttempts then None
    else Some((base * math.pow(2, attempt).toLong).min(cap))

object RetryPolicy:
  val default: RetryPolicy = RetryPolicy(maxAttempts = 4, base = 200.millis, cap = 5.seconds)
