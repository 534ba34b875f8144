#include "lib/http/forwarded_proto.h"

#include <string>

#include "lib/http/header.h"
#include "lib/util/trim.h"

namespace placard::http {

namespace {

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The text after the last comma (the hop nearest to us appends last).
std::string_view last_element(std::string_view list) {
  const auto comma = list.rfind(',');
  return util::trim(comma == std::string_view::npos ? list : list.substr(comma + 1));
}

}  // namespace

std::string forwarded_proto(std::string_view forwarded) {
  std::string_view rest = last_element(forwarded);
  while (!rest.empty()) {
    const auto semi = rest.find(';');
    const auto pair = util::trim(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos) continue;
    if (!iequals(util::trim(pair.substr(0, eq)), "proto")) continue;
    std::string_view value = util::trim(pair.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    return lowered(value);
  }
  return {};
}

bool reached_over_https(const Request& request, const TrustedProxies& trusted) {
  if (request.https) return true;
  if (trusted.empty()) return false;
  const auto peer = parse_ip(request.remote_addr);
  if (!peer || !trusted.contains(*peer)) return false;
  const std::string_view forwarded = request.header("forwarded");
  if (!forwarded.empty()) return forwarded_proto(forwarded) == "https";
  return lowered(last_element(request.header("x-forwarded-proto"))) == "https";
}

}  // namespace placard::http
