// The audit list's time bounds (from and until: whole days or exact times, inclusive).
#include "lib/admin/audit_handlers.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/util/time_format.h"

namespace {

TEST(AuditBounds, DaysAndTimesInclusive) {
  const auto day = placard::util::parse_date("2026-03-01").value();
  EXPECT_EQ(placard::admin::audit_from("2026-03-01"), day);
  EXPECT_EQ(placard::admin::audit_until("2026-03-01"), day + 86400);
  EXPECT_EQ(placard::admin::audit_from("2026-03-01T10:00:00Z"), day + 36000);
  EXPECT_EQ(placard::admin::audit_until("2026-03-01T10:00:00Z"), day + 36001);
  EXPECT_EQ(placard::admin::audit_until("2026-03-01T12:00:00+02:00"), day + 36001);
  for (const char* bad :
       {"", "yesterday", "2026-02-30", "2026-3-1", "2026-03-01T10:00:00", "1700000000"}) {
    EXPECT_FALSE(placard::admin::audit_from(bad)) << bad;
    EXPECT_FALSE(placard::admin::audit_until(bad)) << bad;
  }
}

}  // namespace
