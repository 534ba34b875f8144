#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>

namespace placard::db {

// How many rows a multi-row prepared statement is made for. MysqlSession::prepared keeps every
// statement text it prepared for as long as the session lives: its client buffers, and a
// statement on the server, which counts against `max_prepared_stmt_count` (16,382 by default,
// shared by every application on that server). A statement built for exactly n rows leaves one
// statement per n ever seen: the rollup's marks of rows over a limit, up to 256 shapes a table,
// made a worker grow by ~12 MiB over a ten-minute `make soak`, and each of those statements lived
// on the server too. A statement that may repeat a row without changing what it does (an UPDATE
// ... WHERE id IN (...), an upsert that sets the same values again) is made for
// padded_rows(n, max) rows instead, the last one repeated: at most log2(max) + 1 shapes.
// `max` is a power of two, n from 1 to max.
constexpr std::size_t padded_rows(std::size_t n, std::size_t max) {
  return std::min(std::bit_ceil(std::max<std::size_t>(n, 1)), max);
}

}  // namespace placard::db
