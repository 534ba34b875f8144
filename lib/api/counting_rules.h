#pragma once
#include "lib/http/request.h"
#include "lib/store/ignored_reason.h"

namespace placard::api {

// True when the request says it is a prefetch or prerender, not a view: a `Sec-Purpose`,
// `Purpose` or `X-Moz` header whose value contains "prefetch" (any case).
bool is_prefetch(const http::Request& request);

// Why this impression or click request is answered but not counted (HEAD, then prefetch, then a
// known crawler's User-Agent), or IgnoredReason::none. The per-client limits are judged later,
// by the rollup step (they need every host's events).
db::IgnoredReason ignored_reason(const http::Request& request);

}  // namespace placard::api
