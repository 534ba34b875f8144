#pragma once
#include <cstdint>
#include <string>

namespace placard::util {

// Seconds since the epoch, from the system clock.
std::int64_t unix_now();
// RFC 3339 UTC with 'Z', e.g. 2026-12-31T23:59:59Z.
std::string format_rfc3339(std::int64_t unix_seconds);
void append_rfc3339(std::string& out, std::int64_t unix_seconds);

}  // namespace placard::util
