#pragma once
// Raw bytes (keys, nonces, hashes, encoded numbers) seen as the characters the hex, base64 and SQL
// literal writers take: a view of the same memory, nothing copied.
#include <span>
#include <string_view>

namespace placard::util {

inline std::string_view as_chars(std::span<const unsigned char> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace placard::util
