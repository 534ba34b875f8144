#include "lib/api/counting_rules.h"

#include <algorithm>

#include "lib/api/bot_agents.h"
#include "lib/http/header.h"

namespace placard::api {

namespace {

bool contains_prefetch(std::string_view value) {
  constexpr std::string_view kWord = "prefetch";
  if (value.size() < kWord.size()) return false;
  for (std::size_t i = 0; i + kWord.size() <= value.size(); ++i) {
    if (http::iequals(value.substr(i, kWord.size()), kWord)) return true;
  }
  return false;
}

}  // namespace

bool is_prefetch(const http::Request& request) {
  return std::any_of(request.headers.begin(), request.headers.end(), [](const http::Header& h) {
    return (h.name == "sec-purpose" || h.name == "purpose" || h.name == "x-moz") &&
           contains_prefetch(h.value);
  });
}

db::IgnoredReason ignored_reason(const http::Request& request) {
  if (request.method == "HEAD") return db::IgnoredReason::head;
  if (is_prefetch(request)) return db::IgnoredReason::prefetch;
  if (is_known_bot(request.header("user-agent"))) return db::IgnoredReason::bot;
  return db::IgnoredReason::none;
}

}  // namespace placard::api
