#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "lib/http/header.h"

namespace placard::http {

class Deferred;

inline constexpr std::string_view kJsonContentType = "application/json; charset=utf-8";

struct Response {
  int status = 200;
  Headers headers;  // names as they should be sent
  std::string body;
  // Set: the answer is not made yet; another thread completes it (lib/http/deferred.h), and the
  // fields above mean nothing.
  std::shared_ptr<Deferred> later;

  // Replaces any header of the same name (case-insensitive). A name or value with CR, LF or NUL
  // (a header split into two, or a response split) throws std::invalid_argument: no caller may
  // pass one on; render_response_head also leaves such a header out, whoever added it.
  void set_header(std::string_view name, std::string value);
  std::string_view header(std::string_view name) const;
  bool has(std::string_view name) const;

  static Response json(int status, std::string body);
  static Response empty(int status);
};

std::string_view reason_phrase(int status);

// True when `text` holds CR, LF or NUL: never in a header name or value.
bool breaks_header(std::string_view text);

}  // namespace placard::http
