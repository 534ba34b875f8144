// How many days of events the retention job keeps.
#include "lib/jobs/retention.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace placard {
namespace {

TEST(Retention, NeverBelowTheTokenTimeToLive) {
  EXPECT_EQ(db::effective_retention_days(90, 86400), 90);
  EXPECT_EQ(db::effective_retention_days(1, 86400), 1);
  EXPECT_EQ(db::effective_retention_days(1, 86401), 2);
  EXPECT_EQ(db::effective_retention_days(3, std::int64_t{30} * 86400), 30);
}

}  // namespace
}  // namespace placard
