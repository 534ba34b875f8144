#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace placard::db {

// Which ids of a span (lo, hi] of a raw table a rollup pass counted, kept small: the runs of
// absent and present ids from lo + 1 on, as variable-length integers, compressed with zlib (ids
// from one node of a Galera cluster come every third id, a pattern that compresses to almost
// nothing). Its size grows with the number of runs, never with the width of the span: a span
// with a gap of a billion ids is a few bytes. `ids` ascending, each above `lo`.
std::string encode_id_runs(std::uint64_t lo, const std::vector<std::uint64_t>& ids);

// The ids of `now` (ascending, each above `lo`) that the encoded span did not hold: rows that
// became visible after the pass counted it. Throws std::runtime_error on a malformed encoding.
std::vector<std::uint64_t> ids_not_in(const std::string& encoded, std::uint64_t lo,
                                      const std::vector<std::uint64_t>& now);

}  // namespace placard::db
