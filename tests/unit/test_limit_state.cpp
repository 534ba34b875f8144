// rate_limit_state.counted (sql/0015_limit_state.sql): the counted times the rollup step keeps
// for a client and offer over a limit.
#include "lib/jobs/limit_state.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using placard::db::decode_counted;
using placard::db::encode_counted;
using Times = std::vector<std::int64_t>;

TEST(LimitState, CountedTimesAreDecimalMillisecondsCommaSeparated) {
  EXPECT_EQ(encode_counted({1764300000123, 1764300000456}), "1764300000123,1764300000456");
  EXPECT_EQ(encode_counted({}), "");
  EXPECT_EQ(decode_counted("1764300000123,1764300000456"), (Times{1764300000123, 1764300000456}));
  EXPECT_EQ(decode_counted(""), Times{});
}

TEST(LimitState, RoundTripsAndSortsAscending) {
  const Times times{5, -3, 1764300000000, 0};
  EXPECT_EQ(decode_counted(encode_counted(times)), (Times{-3, 0, 5, 1764300000000}));
}

TEST(LimitState, SkipsWhatIsNotANumber) {
  EXPECT_EQ(decode_counted("12,x,,34 ,56,9999999999999999999999"), (Times{12, 56}));
}

}  // namespace
