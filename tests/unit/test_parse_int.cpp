#include "lib/util/parse_int.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace placard::util {
namespace {

TEST(ParseIntIn, TakesAWholeDecimalNumberInRange) {
  EXPECT_EQ(parse_int_in<int>("240", 1, 3600), 240);
  EXPECT_EQ(parse_int_in<int>("1", 1, 3600), 1);
  EXPECT_EQ(parse_int_in<int>("3600", 1, 3600), 3600);
  EXPECT_EQ(parse_int_in<std::int64_t>("-5", -10, 10), -5);
}

TEST(ParseIntIn, RefusesAnythingElse) {
  for (const char* bad :
       {"", " 1", "1 ", "+1", "1.5", "0x10", "12a", "3601", "0", "-1", "99999999999999999999"}) {
    EXPECT_FALSE(parse_int_in<int>(bad, 1, 3600).has_value()) << bad;
  }
}

TEST(ParseIntIn, SignOverflowAndTrailingJunkPerType) {
  // A minus sign is refused by unsigned types, and where the range has no negatives.
  EXPECT_FALSE(parse_int_in<unsigned>("-1", 0, 10).has_value());
  EXPECT_FALSE(parse_int_in<std::uint64_t>("-0", 0, 10).has_value());
  EXPECT_FALSE(parse_int_in<int>("-1", 0, 10).has_value());
  EXPECT_EQ(parse_int_in<int>("-0", 0, 10), 0);
  // Overflow of the type is refused, not wrapped.
  EXPECT_FALSE(parse_int_in<int>("2147483648", INT32_MIN, INT32_MAX).has_value());
  EXPECT_EQ(parse_int_in<int>("2147483647", INT32_MIN, INT32_MAX), 2147483647);
  EXPECT_EQ(parse_int_in<int>("-2147483648", INT32_MIN, INT32_MAX), INT32_MIN);
  EXPECT_FALSE(parse_int_in<std::uint64_t>("18446744073709551616", 0, UINT64_MAX).has_value());
  EXPECT_EQ(parse_int_in<std::uint64_t>("18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
  // Junk anywhere, and the empty string.
  for (const char* bad : {"", "-", "1-", "1\n", "\t1", "1e3", "1_000", "1.0"}) {
    EXPECT_FALSE(parse_int_in<int>(bad, INT32_MIN, INT32_MAX).has_value()) << bad;
  }
  // Leading zeros are still a number here (parse_canonical_in refuses them).
  EXPECT_EQ(parse_int_in<int>("007", 0, 10), 7);
}

TEST(ParseIntIn, OctalForFileModes) {
  EXPECT_EQ(parse_int_in<unsigned>("0660", 0, 0777, 8), 0660u);
  EXPECT_EQ(parse_int_in<unsigned>("755", 0, 0777, 8), 0755u);
  EXPECT_FALSE(parse_int_in<unsigned>("0800", 0, 0777, 8).has_value());  // 8 is no octal digit
  EXPECT_FALSE(parse_int_in<unsigned>("1000", 0, 0777, 8).has_value());  // past 0777
}

TEST(ParseCanonicalIn, OnlyTheOneWayANumberIsWritten) {
  EXPECT_EQ(parse_canonical_in<int>("0", 0, 99), 0);
  EXPECT_EQ(parse_canonical_in<int>("99", 0, 99), 99);
  EXPECT_EQ(parse_canonical_in<std::uint64_t>("18446744073709551615", 1, UINT64_MAX), UINT64_MAX);
  for (const char* bad : {"", "00", "01", "-0", "-1", "+1", " 1", "1 ", "100", "9a"}) {
    EXPECT_FALSE(parse_canonical_in<int>(bad, 0, 99).has_value()) << bad;
  }
}

}  // namespace
}  // namespace placard::util
