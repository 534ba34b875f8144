#include "lib/http/negotiation.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "lib/http/header.h"
#include "lib/util/trim.h"

namespace placard::http {

namespace {

using util::trim;

double quality_of(std::string_view params) {
  // params: what follows the media range's first ';', e.g. "q=0.8;level=1"
  while (!params.empty()) {
    const auto semi = params.find(';');
    const auto p = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    if (p.size() > 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
      const std::string value(p.substr(2));
      char* end = nullptr;
      const double q = std::strtod(value.c_str(), &end);
      return (end != value.c_str() && q >= 0 && q <= 1) ? q : 0;
    }
  }
  return 1.0;
}

}  // namespace

bool prefers_html(std::string_view accept) {
  double html = -1;  // explicitly listed text/html only
  double json = -1;  // application/json, or a wildcard covering it
  double wildcard = -1;
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    const auto item = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    const auto semi = item.find(';');
    const auto range = trim(item.substr(0, semi));
    const double q =
        quality_of(semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1));
    if (iequals(range, "text/html")) html = std::max(html, q);
    if (iequals(range, "application/json")) json = std::max(json, q);
    if (range == "*/*" || iequals(range, "application/*")) wildcard = std::max(wildcard, q);
  }
  if (json < 0) json = wildcard;
  return html > 0 && html > json;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  const auto opaque = [](std::string_view t) {
    t = trim(t);
    if (t.size() > 2 && t[0] == 'W' && t[1] == '/') t.remove_prefix(2);
    return t;
  };
  const auto wanted = opaque(etag);
  while (!if_none_match.empty()) {
    const auto comma = if_none_match.find(',');
    const auto item = trim(if_none_match.substr(0, comma));
    if_none_match =
        comma == std::string_view::npos ? std::string_view{} : if_none_match.substr(comma + 1);
    if (item == "*" || opaque(item) == wanted) return true;
  }
  return false;
}

}  // namespace placard::http
