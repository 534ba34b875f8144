#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placard::db {

// `rate_limit_state.counted` (sql/0015_limit_state.sql): the counted times of a client and offer
// that went over a limit lately, milliseconds since 1970, comma-separated, as the rollup step
// keeps them instead of reading that pair's history from the raw table.
std::string encode_counted(const std::vector<std::int64_t>& times);

// The times of `text`, ascending. Only the rollup step writes the column; an entry that is not a
// number (never written so) is skipped.
std::vector<std::int64_t> decode_counted(std::string_view text);

}  // namespace placard::db
