package com.acme.etl

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.flatspec.AnyFlatSpec
import org.scalatest.matchers.should.Matchers

class LedgerJobSpec extends AnyFlatSpec with Matchers with BeforeAndAfterAll {
  lazy val spark: SparkSession = SparkSession.builder()
    .master("local[2]").appName("LedgerJobSpec")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate()

  override def afterAll(): Unit = spark.stop()

  import spark.implicits._

  "LedgerJob" should "flag unbalanced accounts" in {
    val entries = Seq(("a1", BigDecimal("10.00")), ("a1", BigDecimal("-10.00")), ("a2", BigDecimal("5.00"))).toDF("account_id", "amount")
    LedgerJob.unbalanced(entries).collect().map(_.getString(0)) shouldBe Array("a2")
  }

}
