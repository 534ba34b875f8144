// Cookie headers and query strings: cookie_value, percent-decoding, Request::query_param and the
// admin list and query parameter rules. Input: a Cookie header, a newline, then a query string.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/admin/list_params.h"
#include "lib/http/api_error.h"
#include "lib/http/cookies.h"
#include "lib/http/request.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;

void check_cookie(std::string_view header, std::string_view name) {
  const auto value = placard::http::cookie_value(header, name);
  if (value) fuzz_check(header.find(*value) != std::string_view::npos, "a value not in the header");
}

// What an admin list does with its query: refusals are 400 invalid_field naming the parameter.
void check_list(const placard::http::Request& request) {
  try {
    const auto p = placard::admin::parse_list_params(request, {"q", "enabled", "status"});
    fuzz_check(p.limit >= 1 && p.limit <= 200, "limit out of range");
    (void)p.filter("q");
    (void)p.bool_filter("enabled");
  } catch (const placard::http::ApiError& e) {
    fuzz_check(e.status() == 400 && e.code() == "invalid_field" && !e.field().empty(),
               "a list parameter refused without 400 invalid_field + field");
  }
  try {
    (void)placard::admin::parse_query_params(request, {"from", "to", "groupBy"});
  } catch (const placard::http::ApiError& e) {
    fuzz_check(e.status() == 400 && !e.field().empty(), "a query parameter refused badly");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);
  const auto newline = text.find('\n');
  const auto cookie = text.substr(0, newline);
  const auto query = newline == std::string_view::npos ? text : text.substr(newline + 1);

  check_cookie(cookie, "placard_session");
  check_cookie(cookie, "__Host-placard_session");
  check_cookie(cookie, "");
  const auto eq = cookie.find('=');
  if (eq != std::string_view::npos) check_cookie(cookie, cookie.substr(0, eq));

  for (const bool plus : {false, true}) {
    const auto decoded = placard::http::percent_decode(query, plus);
    if (decoded) fuzz_check(decoded->size() <= query.size(), "decoding made the text longer");
  }

  placard::http::Request request;
  request.method = "GET";
  request.query = std::string(query);
  for (const char* name : {"t", "limit", "q", ""}) (void)request.query_param(name);
  check_list(request);
  return 0;
}
