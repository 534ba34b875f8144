#pragma once
#include <cstdint>

#include "lib/api/client_hasher.h"
#include "lib/catalog/snapshot.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/store/event_store.h"
#include "lib/tokens/key_ring.h"

namespace placard::api {

// POST /api/v1/events/impression: 200 recorded / duplicate, 400 invalid_token, 410 token_expired.
// A prefetch or a known crawler gets the same answer, and the impression is not counted.
http::Response record_impression(http::Request& request, const catalog::Snapshot& snapshot,
                                 const tokens::KeyRing& keys, db::EventStore& events,
                                 ClientHasher& clients, std::int64_t now);

}  // namespace placard::api
