package com.acme.etl

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.functions._

object RefundsJob {
  def netRefunds(orders: DataFrame, refunds: DataFrame): DataFrame =
    orders
      .join(refunds, Seq("order_id"), "left")
      .withColumn("net_amount", col("amount") - coalesce(col("refund_amount"), lit(0)))
      .select("order_id", "customer_id", "net_amount")
}
