// The router on any method and path, over the public and admin route table.
// Input: "METHOD PATH" (the first space separates them; no space: GET and the whole input).
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/http/api_error.h"
#include "lib/http/router.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;
using placard::http::Request;
using placard::http::Response;
using placard::http::Router;

// The service's patterns (lib/api/routes.cpp, lib/admin/*_handlers.cpp); every handler echoes
// its path parameters so the fuzzer checks what the router hands over.
Router make_router() {
  Router r;
  const auto echo = [](Request& req) {
    std::string body;
    for (const auto& [name, value] : req.params) {
      body.append(name).append("=").append(value).append("\n");
    }
    return Response::json(200, body);
  };
  const std::pair<const char*, const char*> routes[] = {
      {"GET", "/api/v1/config"},
      {"GET", "/api/v1/categories"},
      {"POST", "/api/v1/offers/query"},
      {"POST", "/api/v1/events/impression"},
      {"GET", "/r/click/:offerId"},
      {"POST", "/admin/api/v1/accounts"},
      {"GET", "/admin/api/v1/accounts"},
      {"GET", "/admin/api/v1/accounts/:id"},
      {"POST", "/admin/api/v1/accounts/:id/approve"},
      {"POST", "/admin/api/v1/accounts/:id/revoke"},
      {"GET", "/admin/api/v1/audit/:id"},
      {"GET", "/admin/api/v1/categories/:path"},
      {"PATCH", "/admin/api/v1/categories/:path"},
      {"DELETE", "/admin/api/v1/categories/:path"},
      {"PUT", "/admin/api/v1/countries"},
      {"DELETE", "/admin/api/v1/network/credentials/:network"},
      {"GET", "/admin/api/v1/offers/:id"},
      {"PATCH", "/admin/api/v1/offers/:id"},
      {"POST", "/admin/api/v1/session"},
      {"GET", "/admin/api/v1/session"},
      {"DELETE", "/admin/api/v1/session"},
      {"PATCH", "/admin/api/v1/settings"},
      {"GET", "/admin/api/v1/stats"},
  };
  for (const auto& [method, pattern] : routes) r.add(method, pattern, echo);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Router router = make_router();  // immutable after construction
  const auto text = placard::fuzz::as_text(data, size);
  const auto space = text.find(' ');
  Request request;
  request.method = space == std::string_view::npos ? "GET" : std::string(text.substr(0, space));
  request.path = std::string(space == std::string_view::npos ? text : text.substr(space + 1));

  (void)placard::http::split_path(request.path);
  const auto allowed = router.allowed_methods(request.path);
  (void)placard::http::join_methods(allowed);
  try {
    const auto response = router.dispatch(request);
    fuzz_check(!allowed.empty(), "dispatched a path that allows no method");
    for (const auto& [name, value] : request.params) {
      fuzz_check(!value.empty() && value.find('/') == std::string::npos,
                 "a path parameter is empty or spans segments");
      fuzz_check(request.path.find(value) != std::string::npos, "a parameter not from the path");
    }
    fuzz_check(response.status == 200, "the handler's answer was lost");
  } catch (const placard::http::ApiError& e) {
    fuzz_check(e.status() == 404 || e.status() == 405, "router refused with neither 404 nor 405");
    fuzz_check((e.status() == 404) == allowed.empty(), "404/405 disagrees with allowed_methods");
  }
  return 0;
}
