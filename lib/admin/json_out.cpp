#include "lib/admin/json_out.h"

#include "lib/admin/context.h"
#include "lib/util/time_format.h"

namespace placard::admin {

void write_time(json::Writer& w, std::optional<std::int64_t> unix_seconds) {
  if (!unix_seconds) {
    w.Null();
    return;
  }
  w.String(util::format_rfc3339(*unix_seconds));
}

void write_id(json::Writer& w, std::uint64_t id) {
  w.String(std::to_string(id));
}

void write_string_or_null(json::Writer& w, const std::optional<std::string>& s) {
  if (s) {
    w.String(*s);
  } else {
    w.Null();
  }
}

std::string list_json(const std::vector<std::string>& items, std::uint64_t total, int limit,
                      std::uint64_t offset) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("items");
  w.StartArray();
  for (const auto& item : items) {
    w.RawValue(item.data(), item.size(), rapidjson::kObjectType);
  }
  w.EndArray();
  w.Key("total");
  w.Uint64(total);
  w.Key("limit");
  w.Int(limit);
  w.Key("offset");
  w.Uint64(offset);
  w.EndObject();
  return json::to_string(buf);
}

http::Response ok(std::string json_body) {
  return http::Response::json(200, std::move(json_body));
}

http::Response created(std::string json_body, const std::string& location_suffix) {
  auto r = http::Response::json(201, std::move(json_body));
  r.set_header("Location", std::string(kAdminPrefix) + location_suffix);
  return r;
}

http::Response no_content() {
  return http::Response::empty(204);
}

std::string encode_segment(std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : segment) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '-' ||
        u == '.' || u == '_' || u == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4U]);
      out.push_back(kHex[u & 0xFU]);
    }
  }
  return out;
}

}  // namespace placard::admin
