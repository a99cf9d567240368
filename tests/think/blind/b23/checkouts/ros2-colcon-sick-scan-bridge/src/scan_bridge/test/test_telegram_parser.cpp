// Copyright 2025 Jide Okafor
#include <gtest/gtest.h>

#include <vector>

#include "scan_bridge/telegram_parser.hpp"

TEST(TelegramParser, RejectsShortTelegram)
{
  std::vector<uint8_t> buf(10, 0);
  EXPECT_FALSE(scan_bridge::parse_telegram(buf).has_value());
}

TEST(TelegramParser, ParsesRangesInMetres)
{
  auto buf = scan_bridge::test_telegram_v2({1000, 2500, 0});
  auto scan = scan_bridge::parse_telegram(buf);
  ASSERT_TRUE(scan.has_value());
  ASSERT_EQ(scan->ranges.size(), 3u);
  EXPECT_FLOAT_EQ(scan->ranges[1], 2.5f);
}
