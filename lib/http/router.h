#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/http/request.h"
#include "lib/http/response.h"

namespace placard::http {

// Maps (method, path pattern) to handlers. Patterns are '/'-separated segments; a segment
// ":name" matches one non-empty segment and becomes a path parameter. HEAD is answered by the
// GET handler. A plain object: tests call dispatch() with a Request value, no server needed.
class Router {
 public:
  using Handler = std::function<Response(Request&)>;

  void add(std::string method, std::string_view pattern, Handler handler);

  // Runs the matching handler. Throws ApiError 404 (no pattern matches the path) or
  // 405 with an Allow header (the path matches, the method does not).
  Response dispatch(Request& request) const;

  // Methods that a path answers (GET implies HEAD), in registration order; empty when the path
  // matches no pattern.
  std::vector<std::string> allowed_methods(std::string_view path) const;

  // Every (method, pattern) registered, in registration order (HEAD is not listed: GET answers
  // it). What tests compare docs/openapi.yaml's paths with.
  std::vector<std::pair<std::string, std::string>> routes() const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> segments;
    Handler handler;
  };
  static bool match(const Route& route, const std::vector<std::string_view>& segments,
                    std::vector<std::pair<std::string, std::string>>* params);

  std::vector<Route> routes_;
};

std::vector<std::string_view> split_path(std::string_view path);
std::string join_methods(const std::vector<std::string>& methods);

}  // namespace placard::http
