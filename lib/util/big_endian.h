#pragma once
// An unsigned number written most significant byte first into a fixed place: the token nonce's
// issue time, the client hash's day, a request id's bytes. In that order, comparing the bytes
// compares the numbers, which is what makes time-led keys land at one end of an index.
#include <cstddef>
#include <cstdint>
#include <span>

namespace placard::util {

// The low out.size() bytes of v (at most 8), most significant first.
inline void store_big_endian(std::span<unsigned char> out, std::uint64_t v) {
  for (std::size_t i = out.size(); i-- > 0; v >>= 8) out[i] = static_cast<unsigned char>(v & 0xFF);
}

}  // namespace placard::util
