#include "lib/admin/body.h"

#include <algorithm>

#include "lib/http/api_error.h"
#include "lib/util/time_format.h"

namespace placard::admin {

namespace {
std::string name_of(std::string_view n) {
  return std::string(n);
}
}  // namespace

std::size_t utf8_length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
  }));
}

Body::Body(http::Request& request, std::initializer_list<std::string_view> allowed)
    : Body(request, std::vector<std::string_view>(allowed)) {}

Body::Body(http::Request& request, const std::vector<std::string_view>& allowed) {
  http::parse_object_body(request, doc_.doc());
  for (const auto& m : doc_.doc().GetObject()) {
    const std::string_view key(m.name.GetString(), m.name.GetStringLength());
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      throw http::invalid_field(std::string(key), "This resource has no field " + std::string(key));
    }
  }
}

bool Body::has(std::string_view name) const {
  const auto& o = doc_.doc();
  return o.FindMember(rapidjson::Value(rapidjson::StringRef(name.data(), name.size()))) !=
         o.MemberEnd();
}

bool Body::is_null(std::string_view name) const {
  return has(name) && value(name).IsNull();
}

const rapidjson::Value& Body::value(std::string_view name) const {
  const auto& o = doc_.doc();
  const auto it = o.FindMember(rapidjson::Value(rapidjson::StringRef(name.data(), name.size())));
  if (it == o.MemberEnd()) throw http::missing_field(name_of(name));
  return it->value;
}

std::optional<std::string> Body::opt_string(std::string_view name, std::size_t min_chars,
                                            std::size_t max_chars) const {
  if (!has(name)) return std::nullopt;
  const auto& v = value(name);
  if (!v.IsString()) throw http::invalid_field(name_of(name), name_of(name) + " must be a string");
  std::string s(v.GetString(), v.GetStringLength());
  const auto n = utf8_length(s);
  if (n < min_chars || n > max_chars || s.find('\0') != std::string::npos) {
    throw http::invalid_field(name_of(name), name_of(name) + " must have " +
                                                 std::to_string(min_chars) + " to " +
                                                 std::to_string(max_chars) + " characters");
  }
  return s;
}

std::string Body::string(std::string_view name, std::size_t min_chars,
                         std::size_t max_chars) const {
  auto s = opt_string(name, min_chars, max_chars);
  if (!s) throw http::missing_field(name_of(name));
  return *s;
}

std::optional<bool> Body::opt_boolean(std::string_view name) const {
  if (!has(name)) return std::nullopt;
  const auto& v = value(name);
  if (!v.IsBool())
    throw http::invalid_field(name_of(name), name_of(name) + " must be true or false");
  return v.GetBool();
}

bool Body::boolean(std::string_view name) const {
  const auto b = opt_boolean(name);
  if (!b) throw http::missing_field(name_of(name));
  return *b;
}

std::optional<std::int64_t> Body::opt_integer(std::string_view name, std::int64_t min,
                                              std::int64_t max) const {
  if (!has(name)) return std::nullopt;
  const auto& v = value(name);
  const auto bad = [&] {
    return http::invalid_field(name_of(name), name_of(name) + " must be an integer from " +
                                                  std::to_string(min) + " to " +
                                                  std::to_string(max));
  };
  if (!v.IsInt64()) throw bad();
  const std::int64_t n = v.GetInt64();
  if (n < min || n > max) throw bad();
  return n;
}

std::int64_t Body::integer(std::string_view name, std::int64_t min, std::int64_t max) const {
  const auto n = opt_integer(name, min, max);
  if (!n) throw http::missing_field(name_of(name));
  return *n;
}

std::optional<std::optional<std::int64_t>> Body::opt_nullable_time(std::string_view name) const {
  if (!has(name)) return std::nullopt;
  const auto& v = value(name);
  if (v.IsNull()) return std::optional<std::int64_t>{};
  const auto t = v.IsString()
                     ? util::parse_rfc3339(std::string_view(v.GetString(), v.GetStringLength()))
                     : std::nullopt;
  if (!t) {
    throw http::invalid_field(name_of(name), name_of(name) +
                                                 " must be an RFC 3339 time such as "
                                                 "2026-12-31T23:59:59Z, or null");
  }
  return std::optional<std::int64_t>{*t};
}

std::optional<std::vector<std::string>> Body::opt_string_array(std::string_view name,
                                                               std::size_t max_items) const {
  if (!has(name)) return std::nullopt;
  const auto& v = value(name);
  if (!v.IsArray() || v.Size() > max_items) {
    throw http::invalid_field(name_of(name), name_of(name) + " must be an array of at most " +
                                                 std::to_string(max_items) + " strings");
  }
  std::vector<std::string> out;
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    const std::string field = name_of(name) + "[" + std::to_string(i) + "]";
    if (!v[i].IsString()) throw http::invalid_field(field, field + " must be a string");
    out.emplace_back(v[i].GetString(), v[i].GetStringLength());
  }
  return out;
}

}  // namespace placard::admin
