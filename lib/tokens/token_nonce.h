#pragma once

// A token's nonce: its identity in the database (the unique key on `impressions.token_nonce` and
// `clicks.token_nonce`) and, in hex, the click id. The first 4 bytes are the token's issue time
// (unix seconds, big-endian), the other 12 are random (96 bits: no two tokens of one second
// share a nonce in practice). Random through and through, every recorded event would land on a
// random page of that index: once the raw tables outgrow the buffer pool (a few million rows) each
// event then waits for a page read (issue 24: 8 million rows, 256 MiB pool: 2.2 page reads and
// ~4,000 impressions/s against 13,000 on an empty table). Led by the time, the events of the last
// minutes share the few pages at the index's recent end.

#include <array>
#include <cstdint>

#include "lib/crypto/random_pool.h"

namespace placard::tokens {

void fill_nonce(std::array<unsigned char, 16>& nonce, std::int64_t issued_at,
                crypto::RandomPool& random);

}  // namespace placard::tokens
