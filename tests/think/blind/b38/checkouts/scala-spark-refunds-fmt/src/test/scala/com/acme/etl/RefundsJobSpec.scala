package com.acme.etl

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.flatspec.AnyFlatSpec
import org.scalatest.matchers.should.Matchers

class RefundsJobSpec extends AnyFlatSpec with Matchers with BeforeAndAfterAll {
  lazy val spark: SparkSession = SparkSession.builder()
    .master("local[2]").appName("RefundsJobSpec")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate()

  override def afterAll(): Unit = spark.stop()

  import spark.implicits._

  "RefundsJob" should "net refunds against orders" in {
    val orders  = Seq(("o1", "c1", BigDecimal("100.00")), ("o2", "c2", BigDecimal("40.00"))).toDF("order_id", "customer_id", "amount")
    val refunds = Seq(("o1", BigDecimal("25.00"), "2024-06-02")).toDF("order_id", "refund_amount", "refunded_at")
    val out = RefundsJob.netRefunds(orders, refunds).orderBy("order_id").collect()
    out.map(_.getDecimal(2).doubleValue) shouldBe Array(75.0, 40.0)
  }

}
