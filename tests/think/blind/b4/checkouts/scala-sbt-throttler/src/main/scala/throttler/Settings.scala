package throttler

import com.typesafe.config.Config
import scala.concurrent.duration._
import scala.jdk.DurationConverters._

final case class Settings(rate: Int, burst: Int, idleEviction: FiniteDuration)

object Settings {
  def apply(c: Config): Settings = {
    val t = c.getConfig("throttler")
    Settings(t.getInt("rate"), t.getInt("burst"), t.getDuration("idle-eviction").toScala)
  }
}
