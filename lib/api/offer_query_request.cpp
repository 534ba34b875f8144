#include "lib/api/offer_query_request.h"

#include "lib/http/api_error.h"

namespace placard::api {

namespace {

bool lower_or_digit(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

const rapidjson::Value* member(const rapidjson::Value& body, const char* name) {
  const auto it = body.FindMember(name);
  return it == body.MemberEnd() ? nullptr : &it->value;
}

std::string_view string_of(const rapidjson::Value& v) {
  return {v.GetString(), v.GetStringLength()};
}

// A required string field: absent -> missing_field, not a string or failing `valid` -> invalid.
template <typename Valid>
std::string required_string(const rapidjson::Value& body, const char* name, Valid valid,
                            const char* rule) {
  const auto* v = member(body, name);
  if (v == nullptr) throw http::missing_field(name);
  if (!v->IsString() || !valid(string_of(*v))) throw http::invalid_field(name, rule);
  return std::string(string_of(*v));
}

}  // namespace

bool is_country_code(std::string_view s) {
  return s.size() == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z';
}

bool is_placement_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || !lower_or_digit(s[0])) return false;
  for (char c : s) {
    if (!lower_or_digit(c) && c != '_' && c != '-') return false;
  }
  return true;
}

bool is_category_path(std::string_view s) {
  int segments = 0;
  while (true) {
    const auto dot = s.find('.');
    const auto seg = s.substr(0, dot);
    if (seg.empty() || seg.size() > 32 || !lower_or_digit(seg[0])) return false;
    for (char c : seg) {
      if (!lower_or_digit(c) && c != '-') return false;
    }
    if (++segments > 4) return false;
    if (dot == std::string_view::npos) return true;
    s = s.substr(dot + 1);
  }
}

OfferQueryRequest parse_offer_query(const rapidjson::Value& body) {
  OfferQueryRequest q;
  q.country = required_string(body, "country", is_country_code,
                              "country must be two uppercase letters, e.g. DE");
  q.placement = required_string(body, "placement", is_placement_name,
                                "placement must match [a-z0-9][a-z0-9_-]{0,63}");
  const auto version = required_string(
      body, "extensionVersion",
      [](std::string_view s) { return util::parse_version(s).has_value(); },
      "extensionVersion must be <major>.<minor>.<patch>, each 0..99999");
  q.extension_version = *util::parse_version(version);
  if (const auto* v = member(body, "category")) {
    if (!v->IsString() || !is_category_path(string_of(*v))) {
      throw http::invalid_field("category",
                                "category must be a dotted path such as electronics.phones");
    }
    q.category = std::string(string_of(*v));
  }
  if (const auto* v = member(body, "limit")) {
    if (!v->IsInt() || v->GetInt() < 1 || v->GetInt() > 20) {
      throw http::invalid_field("limit", "limit must be an integer from 1 to 20");
    }
    q.limit = v->GetInt();
  }
  return q;
}

}  // namespace placard::api
