#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/api/client_hasher.h"
#include "lib/catalog/snapshot.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/store/click_store.h"
#include "lib/tokens/key_ring.h"

namespace placard::api {

// GET/HEAD /r/click/:offerId?t= (contract section 4). The offer's state is read from the
// database at click time. Refusals are HTML for browsers, JSON otherwise. HEAD, a prefetch or a
// known crawler gets the same answer, and the click is not counted (the token stays usable).
http::Response follow_click(http::Request& request, const catalog::Snapshot& snapshot,
                            const tokens::KeyRing& keys, db::ClickStore& clicks,
                            ClientHasher& clients, std::int64_t now);

// Only absolute http(s) URLs with a host and no whitespace or control characters.
bool is_safe_redirect_target(std::string_view url);
// Appends name=value to the query of url (before any fragment).
std::string with_query_param(std::string_view url, std::string_view name, std::string_view value);
// The network's sub-id parameter: "subid" (admitad), "clickref" (awin), "" (manual).
std::string_view sub_id_parameter(std::string_view network);

}  // namespace placard::api
