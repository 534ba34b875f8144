#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lib/util/version.h"

namespace placard::catalog {

// Administrator settings (table `settings`), typed. Bad stored values fall back to defaults
// and are reported in `problems` so the loader can log them.
struct Settings {
  bool available = true;
  int refresh_interval_seconds = 900;
  util::Version min_extension_version{1, 0, 0};
  std::vector<std::string> allowed_client_origins;
  // The stored list could not be read: fail closed (every request with an Origin is refused)
  // rather than open (an empty list refuses nothing).
  bool allowed_client_origins_unreadable = false;
  std::int64_t token_ttl_seconds = 86400;
  std::string public_origin;
  int session_idle_minutes = 30;          // admin sessions end after this long unused
  int raw_event_retention_days = 90;      // raw impressions and clicks older than this go
  int network_sync_interval_minutes = 0;  // 0: no scheduled network sync
  // Per-client limits (per offer and client, judged by the rollup step); 0 turns a window off.
  int click_limit_per_minute = 1;
  int click_limit_per_10_minutes = 3;
  int click_limit_per_hour = 10;
  int impression_limit_per_5_minutes = 5;
};

// Ranges of the administrator settings (contract 6.1 and the settings added since).
inline constexpr int kMinSessionIdleMinutes = 1;
inline constexpr int kMaxSessionIdleMinutes = 24 * 60;
inline constexpr int kMinRetentionDays = 1;
inline constexpr int kMaxRetentionDays = 3650;
inline constexpr int kMaxSyncIntervalMinutes = 7 * 24 * 60;
inline constexpr int kMaxEventLimit = 10000;  // the per-client limits: 0 (off) .. this

Settings parse_settings(const std::map<std::string, std::string>& values,
                        std::vector<std::string>& problems);

}  // namespace placard::catalog
