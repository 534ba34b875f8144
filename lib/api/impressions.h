#pragma once
#include <cstdint>

#include "lib/catalog/snapshot.h"
#include "lib/db/event_store.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/tokens/key_ring.h"

namespace placard::api {

// POST /api/v1/events/impression: 200 recorded / duplicate, 400 invalid_token, 410 token_expired.
http::Response record_impression(http::Request& request, const catalog::Snapshot& snapshot,
                                 const tokens::KeyRing& keys, db::EventStore& events,
                                 std::int64_t now);

}  // namespace placard::api
