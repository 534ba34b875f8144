#pragma once
// SQL text whose values we write ourselves, from bytes and integers only: no quoting or escaping
// to get wrong (the event writer's batched insert, the rollup pass's upserts).
#include <cstdint>
#include <string>
#include <string_view>

namespace placard::db {

// Any bytes as a hex literal, X'...' (upper-case digits); '' when empty.
void append_hex_literal(std::string& sql, std::string_view bytes);
// Decimal digits (std::to_chars).
void append_int(std::string& sql, std::int64_t value);
void append_uint(std::string& sql, std::uint64_t value);

}  // namespace placard::db
