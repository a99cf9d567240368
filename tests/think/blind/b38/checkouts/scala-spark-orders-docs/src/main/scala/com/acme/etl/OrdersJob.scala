package com.acme.etl

object OrdersJob {
  // see OrdersJob.dailyTotals
}
