#pragma once
#include "lib/catalog/settings.h"
#include "lib/jobs/rate_limiter.h"

namespace placard::api {

// The per-client limits the settings ask for: clicks per minute, per 10 minutes and per hour,
// impressions per 5 minutes (each per offer and client; 0 turns a window off).
db::RateLimits rate_limits(const catalog::Settings& settings);

}  // namespace placard::api
