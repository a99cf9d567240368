package com.acme.etl

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.functions._

object PageViewsJob {
  def daily(events: DataFrame): DataFrame =
    events.filter(col("event_type") === "page_view")
      .groupBy(to_date(col("event_ts")).as("event_date"), col("page"))
      .agg(count(lit(1)).as("views"))
}
