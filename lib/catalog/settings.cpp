#include "lib/catalog/settings.h"

#include <algorithm>
#include <type_traits>

#include "lib/json/safe_parse.h"
#include "lib/json/writer.h"
#include "lib/util/parse_int.h"

namespace placard::catalog {

namespace {

template <auto Field>
std::string int_get(const Settings& s) {
  return std::to_string(s.*Field);
}
template <auto Field>
bool int_put(Settings& s, const StoredSetting& row, std::string_view text) {
  using Int = std::remove_reference_t<decltype(s.*Field)>;
  const auto v = util::parse_int_in<std::int64_t>(text, row.min, row.max);
  if (v) s.*Field = static_cast<Int>(*v);
  return v.has_value();
}
template <auto Field>
StoredSetting integer(std::string_view name, std::int64_t min, std::int64_t max) {
  return {name, StoredType::integer, min, max, true, &int_get<Field>, &int_put<Field>};
}

StoredSetting available() {
  return {"available",
          StoredType::boolean,
          0,
          0,
          true,
          [](const Settings& s) { return std::string(s.available ? "true" : "false"); },
          [](Settings& s, const StoredSetting&, std::string_view text) {
            if (text != "true" && text != "false") return false;
            s.available = text == "true";
            return true;
          }};
}

StoredSetting min_extension_version() {
  return {"minExtensionVersion",
          StoredType::version,
          1,
          32,
          true,
          [](const Settings& s) { return s.min_extension_version.to_string(); },
          [](Settings& s, const StoredSetting&, std::string_view text) {
            const auto v = util::parse_version(text);
            if (v) s.min_extension_version = *v;
            return v.has_value();
          }};
}

// An unreadable list fails closed: cleared, and allowed_client_origins_unreadable set.
StoredSetting allowed_client_origins() {
  return {"allowedClientOrigins",
          StoredType::origins,
          0,
          50,
          true,
          [](const Settings& s) { return origins_text(s.allowed_client_origins); },
          [](Settings& s, const StoredSetting&, std::string_view text) {
            rapidjson::Document doc;
            bool ok = json::parse_untrusted(text, doc) && doc.IsArray();
            std::vector<std::string> list;
            for (std::size_t i = 0; ok && i < doc.Size(); ++i) {
              ok = doc[static_cast<rapidjson::SizeType>(i)].IsString();
              if (ok) list.emplace_back(doc[i].GetString(), doc[i].GetStringLength());
            }
            if (ok) {
              s.allowed_client_origins = std::move(list);
            } else {
              s.allowed_client_origins.clear();
              s.allowed_client_origins_unreadable = true;
            }
            return ok;
          }};
}

StoredSetting public_origin() {
  return {"publicOrigin",
          StoredType::text,
          0,
          0,
          false,
          [](const Settings& s) { return s.public_origin; },
          [](Settings& s, const StoredSetting&, std::string_view text) {
            s.public_origin = std::string(text);
            return true;
          }};
}

std::vector<StoredSetting> make_table() {
  return {
      available(),
      integer<&Settings::refresh_interval_seconds>("refreshIntervalSeconds", 60, 86400),
      min_extension_version(),
      allowed_client_origins(),
      integer<&Settings::token_ttl_seconds>("tokenTtlSeconds", 1, 30LL * 86400),
      integer<&Settings::session_idle_minutes>("sessionIdleMinutes", kMinSessionIdleMinutes,
                                               kMaxSessionIdleMinutes),
      integer<&Settings::raw_event_retention_days>("rawEventRetentionDays", kMinRetentionDays,
                                                   kMaxRetentionDays),
      integer<&Settings::network_sync_interval_minutes>("networkSyncIntervalMinutes", 0,
                                                        kMaxSyncIntervalMinutes),
      integer<&Settings::click_limit_per_minute>("clickLimitPerMinute", 0, kMaxEventLimit),
      integer<&Settings::click_limit_per_10_minutes>("clickLimitPer10Minutes", 0, kMaxEventLimit),
      integer<&Settings::click_limit_per_hour>("clickLimitPerHour", 0, kMaxEventLimit),
      integer<&Settings::impression_limit_per_5_minutes>("impressionLimitPer5Minutes", 0,
                                                         kMaxEventLimit),
      public_origin(),
  };
}

}  // namespace

std::string origins_text(const std::vector<std::string>& origins) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartArray();
  for (const auto& o : origins) w.String(o);
  w.EndArray();
  return json::to_string(buf);
}

const std::vector<StoredSetting>& stored_settings_table() {
  static const std::vector<StoredSetting> table = make_table();
  return table;
}

const StoredSetting* find_stored_setting(std::string_view name) {
  const auto& table = stored_settings_table();
  const auto it = std::find_if(table.begin(), table.end(),
                               [&](const StoredSetting& row) { return row.name == name; });
  return it == table.end() ? nullptr : &*it;
}

Settings parse_settings(const std::map<std::string, std::string>& values,
                        std::vector<std::string>& problems) {
  Settings s;
  for (const auto& [name, value] : values) {
    const StoredSetting* row = find_stored_setting(name);
    if (row == nullptr || row->put(s, *row, value)) continue;
    if (row->type == StoredType::origins) {
      problems.push_back("setting " + name +
                         " has an invalid value; refusing every Origin until it is fixed");
    } else {
      problems.push_back("setting " + name + " has an invalid value; using the default");
    }
  }
  return s;
}

}  // namespace placard::catalog
