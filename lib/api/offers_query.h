#pragma once
#include <cstdint>

#include "lib/catalog/snapshot.h"
#include "lib/crypto/random_pool.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/fast_rng.h"

namespace placard::api {

// POST /api/v1/offers/query (contract section 3): body and field checks, then 426, 503, 422s,
// then selection from the snapshot and fresh signed tokens for every offer.
http::Response query_offers(http::Request& request, const catalog::Snapshot& snapshot,
                            const tokens::KeyRing& keys, tokens::MacWorkspace& macs,
                            util::FastRng& rng, crypto::RandomPool& nonces, std::int64_t now);

}  // namespace placard::api
