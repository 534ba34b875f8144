#pragma once
#include <string>
#include <string_view>

#include "lib/http/header.h"

namespace placard::http {

inline constexpr std::string_view kJsonContentType = "application/json; charset=utf-8";

struct Response {
  int status = 200;
  Headers headers;  // names as they should be sent
  std::string body;

  // Replaces any header of the same name (case-insensitive).
  void set_header(std::string_view name, std::string value);
  std::string_view header(std::string_view name) const;
  bool has(std::string_view name) const;

  static Response json(int status, std::string body);
  static Response empty(int status);
};

std::string_view reason_phrase(int status);

}  // namespace placard::http
