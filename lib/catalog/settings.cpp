#include "lib/catalog/settings.h"

#include "lib/json/safe_parse.h"
#include "lib/util/parse_int.h"

namespace placard::catalog {

namespace {
template <typename Int>
bool parse_int(const std::string& s, Int min, Int max, Int& out) {
  const auto v = util::parse_int_in<Int>(s, min, max);
  if (v) out = *v;
  return v.has_value();
}
}  // namespace

Settings parse_settings(const std::map<std::string, std::string>& values,
                        std::vector<std::string>& problems) {
  Settings s;
  for (const auto& [name, value] : values) {
    bool ok = true;
    if (name == "available") {
      ok = value == "true" || value == "false";
      if (ok) s.available = value == "true";
    } else if (name == "refreshIntervalSeconds") {
      ok = parse_int(value, 60, 86400, s.refresh_interval_seconds);
    } else if (name == "minExtensionVersion") {
      const auto v = util::parse_version(value);
      ok = v.has_value();
      if (ok) s.min_extension_version = *v;
    } else if (name == "tokenTtlSeconds") {
      ok = parse_int<std::int64_t>(value, 1, 30LL * 86400, s.token_ttl_seconds);
    } else if (name == "sessionIdleMinutes") {
      ok = parse_int(value, kMinSessionIdleMinutes, kMaxSessionIdleMinutes, s.session_idle_minutes);
    } else if (name == "rawEventRetentionDays") {
      ok = parse_int(value, kMinRetentionDays, kMaxRetentionDays, s.raw_event_retention_days);
    } else if (name == "networkSyncIntervalMinutes") {
      ok = parse_int(value, 0, kMaxSyncIntervalMinutes, s.network_sync_interval_minutes);
    } else if (name == "clickLimitPerMinute") {
      ok = parse_int(value, 0, kMaxEventLimit, s.click_limit_per_minute);
    } else if (name == "clickLimitPer10Minutes") {
      ok = parse_int(value, 0, kMaxEventLimit, s.click_limit_per_10_minutes);
    } else if (name == "clickLimitPerHour") {
      ok = parse_int(value, 0, kMaxEventLimit, s.click_limit_per_hour);
    } else if (name == "impressionLimitPer5Minutes") {
      ok = parse_int(value, 0, kMaxEventLimit, s.impression_limit_per_5_minutes);
    } else if (name == "publicOrigin") {
      s.public_origin = value;
    } else if (name == "allowedClientOrigins") {
      rapidjson::Document doc;
      ok = json::parse_untrusted(value, doc) && doc.IsArray();
      if (ok) {
        for (const auto& v : doc.GetArray()) {
          if (!v.IsString()) {
            ok = false;
            break;
          }
          s.allowed_client_origins.emplace_back(v.GetString(), v.GetStringLength());
        }
      }
      if (!ok) {
        s.allowed_client_origins.clear();
        s.allowed_client_origins_unreadable = true;
        problems.push_back(
            "setting allowedClientOrigins has an invalid value; refusing every Origin until it "
            "is fixed");
        continue;
      }
    }
    if (!ok) problems.push_back("setting " + name + " has an invalid value; using the default");
  }
  return s;
}

}  // namespace placard::catalog
