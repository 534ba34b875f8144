#include "lib/api/rate_limits.h"

namespace placard::api {

db::RateLimits rate_limits(const catalog::Settings& s) {
  db::RateLimits out;
  out.impressions = {{300, s.impression_limit_per_5_minutes}};
  out.clicks = {{60, s.click_limit_per_minute},
                {600, s.click_limit_per_10_minutes},
                {3600, s.click_limit_per_hour}};
  return out;
}

}  // namespace placard::api
