#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace placard::util {

// Seconds since the epoch, from the system clock.
std::int64_t unix_now();
// RFC 3339 UTC with 'Z', e.g. 2026-12-31T23:59:59Z.
std::string format_rfc3339(std::int64_t unix_seconds);
void append_rfc3339(std::string& out, std::int64_t unix_seconds);
// Parses RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS, optional fraction (ignored), then Z or
// +HH:MM / -HH:MM ('T' and 'Z' in either case). nullopt for anything else or an impossible date.
std::optional<std::int64_t> parse_rfc3339(std::string_view text);
// Parses a calendar day YYYY-MM-DD (UTC midnight, Unix seconds); nullopt when malformed.
std::optional<std::int64_t> parse_date(std::string_view text);
// YYYY-MM-DD of a Unix time (UTC).
std::string format_date(std::int64_t unix_seconds);

}  // namespace placard::util
