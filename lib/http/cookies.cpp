#include "lib/http/cookies.h"

#include "lib/util/trim.h"

namespace placard::http {

std::optional<std::string> cookie_value(std::string_view header, std::string_view name) {
  std::string_view rest = header;
  while (!rest.empty()) {
    const auto semi = rest.find(';');
    const std::string_view pair = util::trim(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos || util::trim(pair.substr(0, eq)) != name) continue;
    std::string_view value = util::trim(pair.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
  }
  return std::nullopt;
}

}  // namespace placard::http
