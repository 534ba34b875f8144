#pragma once
// Only lib/jobs/*.cpp include this header (it needs mysql_session.h).
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/jobs/rollup_counts.h"
#include "lib/store/event_store.h"

namespace placard::db {

// A raw table as a rollup pass reads it: one SELECT of its new rows, each row turned into a
// RollupEvent (rollup_counts.h). For the counted tables a row with `ignored` NULL is counted and
// the others are ignored ones; every row of ignored_events is an ignored one.
struct RawTable {
  const char* name;         // also its rollup_progress row
  const char* time_column;  // when the event was recorded (the database's UTC clock)
  const char* client;       // the client hash as hex, or NULL
  const char* reason;       // the ignored reason (NULL: counted)
  const char* kind;         // 'impression' or 'click': a constant, or the column holding it
  const char* limit_kind;   // rate_limit_state.kind of its per-client limits; nullptr: none
};

inline constexpr RawTable kImpressions{"impressions", "recorded_at",  "HEX(client_hash)",
                                       "ignored",     "'impression'", "impression"};
inline constexpr RawTable kClicks{"clicks",  "clicked_at", "HEX(client_hash)",
                                  "ignored", "'click'",    "click"};
inline constexpr RawTable kIgnored{"ignored_events", "at", "NULL", "reason", "kind", nullptr};
// Every raw table a rollup pass counts, in the order it counts them.
inline constexpr std::initializer_list<RawTable> kRawTables{kImpressions, kClicks, kIgnored};

// The zero time of the raw tables' times as milliseconds (TIMESTAMPDIFF from it).
inline constexpr const char* kEpoch = "'1970-01-01 00:00:00'";

// A new row: what the counts need, and what the limits need (id order, client).
struct NewRow {
  std::uint64_t id = 0;
  std::optional<ClientHash> client;  // none: unknown, never limited
  RollupEvent event;
};

// A client hash from its hex text (HEX(client_hash)).
ClientHash unhex_client(const std::string& text);

// The rows (from, to] of one raw table, in id order: read once per pass, for the limits and for
// every rollup table.
std::vector<NewRow> read_new_rows(MysqlSession& s, const RawTable& t, std::uint64_t from,
                                  std::uint64_t to);

}  // namespace placard::db
