#include "lib/http/router.h"

#include <algorithm>

#include "lib/http/api_error.h"

namespace placard::http {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  if (!path.empty() && path.front() == '/') start = 1;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const auto end = slash == std::string_view::npos ? path.size() : slash;
    out.push_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

std::string join_methods(const std::vector<std::string>& methods) {
  std::string out;
  for (const auto& m : methods) {
    if (!out.empty()) out += ", ";
    out += m;
  }
  return out;
}

void Router::add(std::string method, std::string_view pattern, Handler handler) {
  Route r{std::move(method), {}, std::move(handler)};
  for (auto seg : split_path(pattern)) r.segments.emplace_back(seg);
  routes_.push_back(std::move(r));
}

bool Router::match(const Route& route, const std::vector<std::string_view>& segments,
                   std::vector<std::pair<std::string, std::string>>* params) {
  if (route.segments.size() != segments.size()) return false;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& pat = route.segments[i];
    if (!pat.empty() && pat.front() == ':') {
      if (segments[i].empty()) return false;
      if (params != nullptr) params->emplace_back(pat.substr(1), segments[i]);
    } else if (pat != segments[i]) {
      return false;
    }
  }
  return true;
}

std::vector<std::pair<std::string, std::string>> Router::routes() const {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(routes_.size());
  for (const auto& r : routes_) {
    std::string pattern;
    for (const auto& seg : r.segments) pattern += "/" + seg;
    out.emplace_back(r.method, pattern.empty() ? "/" : pattern);
  }
  return out;
}

std::vector<std::string> Router::allowed_methods(std::string_view path) const {
  const auto segments = split_path(path);
  std::vector<std::string> out;
  for (const auto& r : routes_) {
    if (!match(r, segments, nullptr)) continue;
    if (std::find(out.begin(), out.end(), r.method) == out.end()) out.push_back(r.method);
    if (r.method == "GET" && std::find(out.begin(), out.end(), "HEAD") == out.end()) {
      out.emplace_back("HEAD");
    }
  }
  return out;
}

Response Router::dispatch(Request& request) const {
  const auto segments = split_path(request.path);
  const std::string_view wanted =
      request.method == "HEAD" ? std::string_view("GET") : std::string_view(request.method);
  bool path_known = false;
  for (const auto& r : routes_) {
    if (!match(r, segments, nullptr)) continue;
    path_known = true;
    if (r.method != wanted) continue;
    request.params.clear();
    match(r, segments, &request.params);
    return r.handler(request);
  }
  if (!path_known) throw not_found();
  ApiError e{405, "method_not_allowed", "Method " + request.method + " is not allowed here"};
  e.with_header("Allow", join_methods(allowed_methods(request.path)));
  throw e;
}

}  // namespace placard::http
