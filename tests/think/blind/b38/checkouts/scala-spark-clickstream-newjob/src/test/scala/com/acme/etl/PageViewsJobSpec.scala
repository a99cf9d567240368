package com.acme.etl

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.flatspec.AnyFlatSpec
import org.scalatest.matchers.should.Matchers

class PageViewsJobSpec extends AnyFlatSpec with Matchers with BeforeAndAfterAll {
  lazy val spark: SparkSession = SparkSession.builder()
    .master("local[2]").appName("PageViewsJobSpec")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate()

  override def afterAll(): Unit = spark.stop()

  import spark.implicits._

  "PageViewsJob" should "count page views per day and page" in {
    val events = Seq(
      ("u1", "page_view", "/home", "2024-06-01 10:00:00"),
      ("u1", "click",     "/home", "2024-06-01 10:00:05"),
      ("u2", "page_view", "/home", "2024-06-01 11:00:00")
    ).toDF("user_id", "event_type", "page", "event_ts")
    PageViewsJob.daily(events).collect().map(_.getLong(2)) shouldBe Array(2L)
  }

}
