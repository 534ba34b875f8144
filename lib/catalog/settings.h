#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
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

// How a stored setting is written in the database, checked by the admin API and shown in JSON.
enum class StoredType {
  boolean,  // "true" / "false"; a JSON boolean
  integer,  // decimal from min to max; a JSON number
  version,  // <major>.<minor>.<patch>; a JSON string (the API takes min..max characters)
  origins,  // a JSON array of origins (the API takes at most max entries, each normalised)
  text,     // any text; a JSON string, null when empty
};

// One administrator setting: its name (the same in the admin API's JSON and as the key of table
// `settings`), type, range, whether PATCH /admin/api/v1/settings may change it, and the field
// of Settings it fills (whose initializer is the default). The snapshot reader (parse_settings),
// the admin API's validation and its JSON answer (lib/admin/settings_*) all go through the
// table, so a new database-held setting is one field of Settings plus one row.
struct StoredSetting {
  std::string_view name;
  StoredType type = StoredType::integer;
  std::int64_t min = 0;
  std::int64_t max = 0;
  bool writable = true;  // false: the API refuses it (publicOrigin is the config file's)
  // The field as stored text (what the database holds), and stored text into the field; false
  // (the field untouched) when the text does not fit the type and range.
  std::string (*get)(const Settings&) = nullptr;
  bool (*put)(Settings&, const StoredSetting&, std::string_view text) = nullptr;
};

// Every administrator setting, in the order GET /settings shows them.
const std::vector<StoredSetting>& stored_settings_table();

// The row named `name`, or nullptr.
const StoredSetting* find_stored_setting(std::string_view name);

// A list of origins as allowedClientOrigins is stored: a JSON array of strings.
std::string origins_text(const std::vector<std::string>& origins);

// Every stored setting, typed. Unknown names are ignored; bad values keep their defaults and
// are reported in `problems` (allowedClientOrigins fails closed instead, see above).
Settings parse_settings(const std::map<std::string, std::string>& values,
                        std::vector<std::string>& problems);

}  // namespace placard::catalog
