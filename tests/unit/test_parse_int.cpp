#include "lib/util/parse_int.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace placard::util
