#include "lib/admin/list_params.h"

#include <algorithm>
#include <vector>

#include "lib/http/api_error.h"
#include "lib/util/parse_int.h"

namespace placard::admin {

namespace {

using Params = std::map<std::string, std::string, std::less<>>;

Params decode_params(std::string_view query, const std::vector<std::string_view>& allowed) {
  Params out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    const auto key = http::percent_decode(pair.substr(0, eq), true);
    if (!key) throw http::invalid_field("query", "A query parameter's name is badly encoded");
    // "=x": no name to put in the error's field (found by fuzzing: the answer named no field).
    if (key->empty()) throw http::invalid_field("query", "A query parameter has no name");
    if (std::find(allowed.begin(), allowed.end(), *key) == allowed.end()) {
      throw http::invalid_field(*key, "Unknown query parameter " + *key);
    }
    const auto value = eq == std::string_view::npos
                           ? std::optional<std::string>{std::string{}}
                           : http::percent_decode(pair.substr(eq + 1), true);
    if (!value) throw http::invalid_field(*key, *key + " is badly encoded");
    if (!out.emplace(*key, *value).second) {
      throw http::invalid_field(*key, *key + " is given more than once");
    }
  }
  return out;
}

template <typename Int>
Int parse_number(const std::string& text, Int min, Int max, const char* name) {
  const auto v = util::parse_int_in<Int>(text, min, max);
  if (!v) {
    throw http::invalid_field(name, std::string(name) + " must be an integer from " +
                                        std::to_string(min) + " to " + std::to_string(max));
  }
  return *v;
}

}  // namespace

Params parse_query_params(const http::Request& request,
                          std::initializer_list<std::string_view> allowed) {
  return decode_params(request.query, std::vector<std::string_view>(allowed));
}

std::optional<std::string> ListParams::filter(std::string_view name) const {
  const auto it = filters.find(name);
  if (it == filters.end()) return std::nullopt;
  return it->second;
}

std::optional<bool> ListParams::bool_filter(std::string_view name) const {
  const auto v = filter(name);
  if (!v) return std::nullopt;
  if (*v == "true") return true;
  if (*v == "false") return false;
  throw http::invalid_field(std::string(name), std::string(name) + " must be true or false");
}

ListParams parse_list_params(const http::Request& request,
                             std::initializer_list<std::string_view> filters) {
  std::vector<std::string_view> allowed(filters);
  allowed.emplace_back("limit");
  allowed.emplace_back("offset");
  ListParams p;
  for (auto& [k, v] : decode_params(request.query, allowed)) {
    if (k == "limit") {
      p.limit = parse_number<int>(v, 1, 200, "limit");
    } else if (k == "offset") {
      p.offset = parse_number<std::uint64_t>(v, 0, 1'000'000'000'000ULL, "offset");
    } else {
      p.filters.emplace(k, std::move(v));
    }
  }
  return p;
}

}  // namespace placard::admin
