#pragma once
// SQL text whose values we write ourselves, from bytes and integers only: no quoting or escaping
// to get wrong (the event writer's batched insert, the rollup pass's upserts).
#include <string>
#include <string_view>

namespace placard::db {

// Any bytes as a hex literal, X'...' (upper-case digits); '' when empty. Numbers:
// util::append_decimal.
void append_hex_literal(std::string& sql, std::string_view bytes);

}  // namespace placard::db
