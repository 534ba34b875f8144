#include "lib/http/negotiation.h"

#include <algorithm>

#include "lib/http/header.h"
#include "lib/util/trim.h"

namespace placard::http {

namespace {
using util::trim;
}  // namespace

std::optional<double> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
  int thousandths = text[0] == '1' ? 1000 : 0;
  if (text.size() == 1) return thousandths / 1000.0;
  if (text[1] != '.' || text.size() > 5) return std::nullopt;
  int scale = 100;
  for (const char c : text.substr(2)) {
    if (c < '0' || c > '9' || (thousandths == 1000 && c != '0')) return std::nullopt;
    thousandths += (c - '0') * scale;
    scale /= 10;
  }
  return thousandths / 1000.0;
}

void for_each_weighted(std::string_view header,
                       const std::function<void(std::string_view name, double q)>& each) {
  while (!header.empty()) {
    const auto comma = header.find(',');
    auto item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    const auto semi = item.find(';');
    const auto name = trim(item.substr(0, semi));
    // The parameters, e.g. "level=1;q=0.8": the first q decides.
    auto params = semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1);
    double q = 1.0;
    while (!params.empty()) {
      const auto next = params.find(';');
      const auto p = trim(params.substr(0, next));
      params = next == std::string_view::npos ? std::string_view{} : params.substr(next + 1);
      if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
        q = parse_qvalue(trim(p.substr(2))).value_or(0.0);
        break;
      }
    }
    if (!name.empty()) each(name, q);
  }
}

bool prefers_html(std::string_view accept) {
  double html = -1;  // explicitly listed text/html only
  double json = -1;  // application/json, or a wildcard covering it
  double wildcard = -1;
  for_each_weighted(accept, [&](std::string_view range, double q) {
    if (iequals(range, "text/html")) html = std::max(html, q);
    if (iequals(range, "application/json")) json = std::max(json, q);
    if (range == "*/*" || iequals(range, "application/*")) wildcard = std::max(wildcard, q);
  });
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
