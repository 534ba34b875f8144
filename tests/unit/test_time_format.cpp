// util::parse_rfc3339 / parse_date / format: leap years, offsets, and the forms refused.
#include "lib/util/time_format.h"

#include <gtest/gtest.h>

namespace {

using placard::util::format_date;
using placard::util::format_rfc3339;
using placard::util::parse_date;
using placard::util::parse_rfc3339;

TEST(TimeFormat, ParsesUtc) {
  EXPECT_EQ(parse_rfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:59:59Z"), 1'798'761'599);
  EXPECT_EQ(parse_rfc3339("2026-12-31t23:59:59z"), 1'798'761'599);  // either case
  EXPECT_EQ(parse_rfc3339("9999-12-31T23:59:59Z"), 253'402'300'799);
}

TEST(TimeFormat, FractionsAreIgnored) {
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:59:59.5Z"), 1'798'761'599);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:59:59.123456789Z"), 1'798'761'599);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:59:59.1234567890Z"), std::nullopt);  // > 9 digits
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:59:59.Z"), std::nullopt);
}

TEST(TimeFormat, Offsets) {
  EXPECT_EQ(parse_rfc3339("2027-01-01T01:00:00+02:00"), 1'798'758'000);
  EXPECT_EQ(parse_rfc3339("2026-12-31T20:30:00-02:30"), 1'798'758'000);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00+00:00"), 1'798'758'000);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00-00:00"), 1'798'758'000);
  EXPECT_EQ(parse_rfc3339("2027-01-01T00:59:59.9+01:00"), 1'798'761'599);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00+24:00"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00+01:60"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00+0100"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00+01"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-31T23:00:00"), std::nullopt);  // no zone
}

TEST(TimeFormat, LeapYears) {
  EXPECT_EQ(parse_rfc3339("2024-02-29T00:00:00Z"), 1'709'164'800);
  EXPECT_EQ(parse_rfc3339("2000-02-29T00:00:00Z"), 951'782'400);   // divisible by 400
  EXPECT_EQ(parse_rfc3339("2100-02-29T00:00:00Z"), std::nullopt);  // divisible by 100
  EXPECT_EQ(parse_rfc3339("2026-02-29T00:00:00Z"), std::nullopt);
  EXPECT_EQ(parse_date("2024-02-29"), 1'709'164'800);
  EXPECT_EQ(parse_date("2025-02-29"), std::nullopt);
  EXPECT_EQ(parse_date("2024-02-30"), std::nullopt);
}

TEST(TimeFormat, ImpossibleDatesAndTimes) {
  for (const char* bad : {"2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z",
                          "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z",
                          "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "1969-12-31T23:59:59Z"}) {
    EXPECT_EQ(parse_rfc3339(bad), std::nullopt) << bad;
  }
}

TEST(TimeFormat, BadForms) {
  for (const char* bad : {"", "2026-12-31", "2026-12-31 23:59:59Z", "2026-12-31T23:59Z",
                          "26-12-31T23:59:59Z", "2026-1-31T23:59:59Z", "2026/12/31T23:59:59Z",
                          "2026-12-31T23-59-59Z", "+2026-12-31T23:59:59Z", "2026-12-31T23:59:59ZZ",
                          "2026-12-31T23:59:59Z ", " 2026-12-31T23:59:59Z", "2026-12-31T2a:59:59Z",
                          "2026-12-31T23:59:59UTC", "2026-12-31T23:59:59\xEF\xBC\xBA"}) {
    EXPECT_EQ(parse_rfc3339(bad), std::nullopt) << bad;
  }
  for (const char* bad : {"", "2026-1-01", "2026-01-1", "2026/01/01", "20260101", "2026-01-01Z",
                          "2026-01-01T00:00:00Z", "abcd-ef-gh", "1969-12-31"}) {
    EXPECT_EQ(parse_date(bad), std::nullopt) << bad;
  }
}

TEST(TimeFormat, FormatsRoundTrip) {
  EXPECT_EQ(format_rfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_rfc3339(1'798'761'599), "2026-12-31T23:59:59Z");
  EXPECT_EQ(format_rfc3339(1'709'164'800), "2024-02-29T00:00:00Z");
  EXPECT_EQ(format_rfc3339(253'402'300'799), "9999-12-31T23:59:59Z");
  EXPECT_EQ(format_rfc3339(253'402'300'800), "10000-01-01T00:00:00Z");  // the general form
  EXPECT_EQ(format_date(1'709'164'800 + 86'399), "2024-02-29");
  for (const std::int64_t t : {0LL, 951'782'400LL, 1'709'164'800LL, 1'798'761'599LL}) {
    EXPECT_EQ(parse_rfc3339(format_rfc3339(t)), t);
    EXPECT_EQ(parse_date(format_date(t)), t - t % 86'400);
  }
}

}  // namespace
