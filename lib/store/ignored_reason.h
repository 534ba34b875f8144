#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace placard::db {

// Why an answered impression or click is not counted (issue 15, "honest counting"). The first
// three are known from the request and are written to `ignored_events`, not to the counted
// table (the token stays usable by the real view or click); rate_limited is decided later, by
// the rollup step, on a row of the counted table.
enum class IgnoredReason : std::uint8_t { none, prefetch, head, bot, rate_limited };

inline constexpr std::size_t kIgnoredReasons = 4;  // prefetch .. rate_limited

// "prefetch", "head", "bot", "rate_limited": the database's ENUM values and the statistics'
// keys; "" for none.
std::string_view ignored_reason_name(IgnoredReason reason);
// The reason of a name above; nullopt for anything else.
std::optional<IgnoredReason> ignored_reason_from(std::string_view name);
// 0..3 for prefetch .. rate_limited (an index into per-reason arrays); none must not be asked.
inline std::size_t reason_index(IgnoredReason reason) {
  return static_cast<std::size_t>(reason) - 1;
}

}  // namespace placard::db
