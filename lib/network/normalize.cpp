#include "lib/network/normalize.h"

#include "lib/http/header.h"
#include "lib/util/time_format.h"

namespace placard::network {

namespace {

bool clean(std::string_view s) {
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> https_image(std::string_view url) {
  if (!clean(url)) return std::nullopt;
  std::string_view rest;
  if (http::starts_with_ci(url, "https://")) {
    rest = url.substr(8);
  } else if (http::starts_with_ci(url, "http://")) {
    rest = url.substr(7);
  } else if (url.substr(0, 2) == "//") {
    rest = url.substr(2);
  } else {
    return std::nullopt;
  }
  if (rest.empty() || rest.front() == '/') return std::nullopt;
  return "https://" + std::string(rest);
}

std::optional<std::int64_t> parse_network_time(std::string_view text) {
  if (text.size() < 19) return std::nullopt;
  std::string t(text);
  if (t[10] == ' ') t[10] = 'T';
  // A zone is 'Z' or +HH:MM / -HH:MM after the seconds (and an optional fraction).
  std::size_t i = 19;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  }
  if (i == t.size()) t += 'Z';  // no zone: UTC
  return util::parse_rfc3339(t);
}

std::optional<std::string> country_code(std::string_view text) {
  if (text.size() != 2) return std::nullopt;
  std::string out;
  for (char c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c < 'A' || c > 'Z') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

const rapidjson::Value* member(const rapidjson::Value& obj, const char* name) {
  if (!obj.IsObject()) return nullptr;
  const auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string str(const rapidjson::Value& obj, const char* name) {
  const auto* v = member(obj, name);
  if (v == nullptr || !v->IsString()) return {};
  return {v->GetString(), v->GetStringLength()};
}

std::optional<std::string> id_text(const rapidjson::Value& obj, const char* name) {
  const auto* v = member(obj, name);
  if (v == nullptr) return std::nullopt;
  if (v->IsUint64()) return std::to_string(v->GetUint64());
  if (v->IsString() && v->GetStringLength() > 0 && v->GetStringLength() <= 64) {
    return std::string(v->GetString(), v->GetStringLength());
  }
  return std::nullopt;
}

}  // namespace placard::network
