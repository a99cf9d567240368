package throttler

import com.typesafe.config.ConfigFactory
import org.scalatest.wordspec.AnyWordSpec
import scala.concurrent.duration._

class SettingsSpec extends AnyWordSpec {
  "Settings" should {
    "load defaults from reference.conf" in {
      val s = Settings(ConfigFactory.load())
      assert(s.rate == 50 && s.burst == 100 && s.idleEviction == 10.minutes)
    }
  }
}
