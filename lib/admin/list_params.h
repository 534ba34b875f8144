#pragma once
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/admin/json_out.h"
#include "lib/http/request.h"

namespace placard::admin {

// Query parameters of an admin list (contract 6.1): `limit` 1..200 (default 50), `offset` >= 0,
// and the list's own filters. Any other parameter, a repeated one, a bad escape or a bad number:
// 400 invalid_field naming it.
struct ListParams {
  int limit = 50;
  std::uint64_t offset = 0;
  std::map<std::string, std::string, std::less<>> filters;  // as given, decoded

  std::optional<std::string> filter(std::string_view name) const;
  // "true" / "false", else 400 invalid_field.
  std::optional<bool> bool_filter(std::string_view name) const;
};

ListParams parse_list_params(const http::Request& request,
                             std::initializer_list<std::string_view> filters);

// The answer to a list request: a store's page (`items`, `total`) as {"items", "total", "limit",
// "offset"}, each item written by `to_json`.
template <typename Page, typename ToJson>
http::Response page_response(const Page& page, const ListParams& p, ToJson to_json) {
  std::vector<std::string> items;
  items.reserve(page.items.size());
  for (const auto& item : page.items) items.push_back(to_json(item));
  return ok(list_json(items, page.total, p.limit, p.offset));
}

// Every query parameter of a request that is not a list (e.g. /stats), decoded; an unknown,
// repeated or malformed one is 400 invalid_field.
std::map<std::string, std::string, std::less<>> parse_query_params(
    const http::Request& request, std::initializer_list<std::string_view> allowed);

}  // namespace placard::admin
