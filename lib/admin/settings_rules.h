#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/catalog/settings.h"

namespace placard::admin {

// An entry of allowedClientOrigins: `scheme://host[:port]`, nothing else (no path, not even
// "/", no user, query or fragment). Scheme and host are lower-cased (browsers send them so),
// and a default port (http :80, https :443) is dropped, as browsers leave it out of Origin.
// `chrome-extension://<id>` and `moz-extension://<uuid>` fit the same form; the one wildcard
// `moz-extension://*` (any Firefox extension) is accepted as is. nullopt: not one.
std::optional<std::string> normalize_client_origin(std::string_view text);

// The token time to live in whole days, rounded up: raw events must be kept at least that long,
// or a retried impression could be counted again after its first record was purged.
std::int64_t token_ttl_days(std::int64_t token_ttl_seconds);

// GET /settings: every administrator setting, plus publicOrigin (null when unset).
std::string settings_json(const catalog::Settings& settings);

}  // namespace placard::admin
