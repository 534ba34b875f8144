#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/http/json_body.h"
#include "lib/http/request.h"

namespace placard::admin {

// An admin write's JSON body (contract sections 0 and 6.1): the body rules of section 0 (415,
// 413, 400 invalid_json), then a field the resource does not have is 400 invalid_field naming it.
// The typed getters throw 400 missing_field / invalid_field naming the field.
class Body {
 public:
  Body(http::Request& request, std::initializer_list<std::string_view> allowed);
  Body(http::Request& request, const std::vector<std::string_view>& allowed);
  Body(const Body&) = delete;
  Body& operator=(const Body&) = delete;

  bool has(std::string_view name) const;
  bool is_null(std::string_view name) const;
  const rapidjson::Value& value(std::string_view name) const;  // must exist

  // Required (missing_field when absent) or optional (nullopt when absent); null is invalid.
  std::string string(std::string_view name, std::size_t min_chars, std::size_t max_chars) const;
  std::optional<std::string> opt_string(std::string_view name, std::size_t min_chars,
                                        std::size_t max_chars) const;
  bool boolean(std::string_view name) const;
  std::optional<bool> opt_boolean(std::string_view name) const;
  std::int64_t integer(std::string_view name, std::int64_t min, std::int64_t max) const;
  std::optional<std::int64_t> opt_integer(std::string_view name, std::int64_t min,
                                          std::int64_t max) const;
  // An RFC 3339 time or null: absent -> nullopt; null -> optional holding nullopt.
  std::optional<std::optional<std::int64_t>> opt_nullable_time(std::string_view name) const;
  // An array of strings (each checked by the caller); absent -> nullopt.
  std::optional<std::vector<std::string>> opt_string_array(std::string_view name,
                                                           std::size_t max_items) const;

 private:
  http::BodyDocument doc_;
};

// Length of UTF-8 text in code points (the text is valid UTF-8: the parser checked it).
std::size_t utf8_length(std::string_view text);

}  // namespace placard::admin
