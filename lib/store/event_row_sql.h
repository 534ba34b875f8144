#pragma once
// Only lib/store/*.cpp include this header (it needs Connector/C++).
#include <array>
#include <cstdint>
#include <string>

#include "lib/db/mysql_session.h"
#include "lib/db/sql_literals.h"
#include "lib/store/event_store.h"

namespace placard::db {

// The event writer's rows of impressions and clicks, as SQL (lib/store/event_batcher.cpp).

// The columns of a row, after INSERT ... INTO <table>.
inline constexpr const char* kEventColumns =
    " (token_nonce, offer_id, placement, country, issued_at, client_hash) VALUES ";
// The portable flavor's row (prepared): the nonce and the client hash go as their 16 bytes (a
// string parameter into a BINARY(16) column is stored as is), not as hex for UNHEX().
inline constexpr const char* kEventRowParams = "(?, ?, ?, ?, FROM_UNIXTIME(?), ?)";
// Binds one row of kEventRowParams, from parameter `first` on.
void bind_event_row(sql::PreparedStatement& st, unsigned first, const EventRecord& e);

// The batched insert and the offers read go as text statements whose values are written by us
// from bytes and integers only: every string as a hex literal (X'...', no quoting or escaping to
// get wrong), every number by std::to_chars. A prepared statement cost the writer more than the
// statement itself: Connector/C++ binds each parameter through its own allocations (~900
// instructions per parameter, six per row), and builds a result-set buffer per execution
// (~20,000 instructions for the offers read); callgrind, issue 24.
void append_event_row(std::string& sql, const EventRecord& e);

// The 16 bytes of a nonce or client hash, as a string (a BINARY(16) parameter).
std::string bytes_of(const std::array<unsigned char, 16>& a);
// The nonce as MariaDB's HEX() writes it (upper case): what RETURNING HEX(token_nonce) gives.
std::string nonce_hex_upper(const EventRecord& e);

}  // namespace placard::db
