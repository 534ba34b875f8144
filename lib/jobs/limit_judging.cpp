#include "lib/jobs/limit_judging.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "lib/crypto/sha256.h"
#include "lib/db/statement_shapes.h"
#include "lib/jobs/limit_state.h"
#include "lib/util/byte_view.h"

namespace placard::db {

namespace {

// A state row idle this long is deleted: longer than the longest window any setting gives (an
// hour: lib/api/rate_limits.cpp), so none of its pair's marked rows is within reach by then.
constexpr const char* kIdle = "INTERVAL 2 HOUR";
// A pair whose new events are all over a limit changes only its last_at, which decides nothing
// but when its row is deleted: it is written once it is a minute behind, not every pass.
constexpr std::int64_t kLastAtSlackMs = 60'000;
// Rows per statement at most; each statement is made for padded_rows() of its rows, the last one
// repeated (lib/db/statement_shapes.h): 9 and 8 shapes a table, not 256 and 100.
constexpr std::size_t kMarkChunk = 256;   // ids per UPDATE
constexpr std::size_t kStateChunk = 128;  // rows per state upsert

// A client and offer as a hash key: the client hash is already uniformly distributed.
struct KeyHash {
  std::size_t operator()(const RateJudge::Key& k) const {
    std::uint64_t h = 0;
    std::memcpy(&h, k.first.data(), sizeof h);
    return static_cast<std::size_t>(h ^ (k.second * 0x9e3779b97f4a7c15ULL));
  }
};

struct PairState {
  std::vector<std::int64_t> counted;  // as stored
  std::int64_t last_ms = 0;
};
using StateMap = std::unordered_map<RateJudge::Key, PairState, KeyHash>;

// What this pass saw of a pair: its latest new event, and whether one was counted or marked.
struct PairPass {
  std::int64_t latest_ms = 0;
  bool counted = false;
  bool marked = false;
};

std::string time_ms(const char* column) {
  return std::string("TIMESTAMPDIFF(MICROSECOND, ") + kEpoch + ", " + column + ") DIV 1000";
}

// Drops the state kept for a shorter window than the settings ask now (it may miss counted events
// the longer window reaches), and the rows idle for two hours. False when there was no state (one
// read of the window key's end); state_among then need not be asked.
bool prune_state(MysqlSession& s, const RawTable& t, std::int64_t longest_ms) {
  auto& shortest = s.prepared("SELECT MIN(window_ms) FROM rate_limit_state WHERE kind = ?");
  shortest.setString(1, t.limit_kind);
  const auto rs = query(shortest);
  if (!rs->next() || rs->isNull(1)) return false;
  if (rs->getInt64(1) < longest_ms) {
    auto& shorter = s.prepared("DELETE FROM rate_limit_state WHERE kind = ? AND window_ms < ?");
    shorter.setString(1, t.limit_kind);
    shorter.setInt64(2, longest_ms);
    shorter.executeUpdate();
  }
  // Oldest first, as retention deletes: a LIMIT without an order is unsafe to replicate by
  // statement. Without idle rows this is one probe of the last_at key's start.
  auto& idle = s.prepared(std::string("DELETE FROM rate_limit_state WHERE last_at < "
                                      "UTC_TIMESTAMP(3) - ") +
                          kIdle + " ORDER BY last_at LIMIT 1000");
  idle.executeUpdate();
  return true;
}

// Whether any of `fresh` is from a client with state (none when the pruning left none): the
// state's clients are few (a client that went over a limit lately), read from an index alone.
// When they are many (a flood from many addresses), every pass is taken to have some.
bool state_among(MysqlSession& s, const RawTable& t, const std::vector<JudgedEvent>& fresh) {
  constexpr int kMaxClients = 1000;
  auto& st =
      s.prepared("SELECT DISTINCT HEX(client_hash) FROM rate_limit_state WHERE kind = ? LIMIT " +
                 std::to_string(kMaxClients + 1));
  st.setString(1, t.limit_kind);
  const auto rs = query(st);
  std::vector<ClientHash> clients;
  while (rs->next()) clients.push_back(unhex_client(rs->getString(1).asStdString()));
  if (clients.size() > static_cast<std::size_t>(kMaxClients)) return true;
  std::sort(clients.begin(), clients.end());
  return std::any_of(fresh.begin(), fresh.end(), [&clients](const JudgedEvent& e) {
    return std::binary_search(clients.begin(), clients.end(), e.key.first);
  });
}

// The history of the new rows' pairs (from, to], in one statement: their counted rows of
// earlier passes from history_from_ms on (one range of the client key per pair; `ignored` is read
// from the row), and, `with_state`, the state rows of the pairs that have one instead of their
// raw rows (their marked rows are never read); without, the statement of the limits before
// sql/0015. Measured on 50,000 new rows with 5,000 state rows:
// 51 ms against 46 without the state; separate statements for the state and the raw rows took
// 68 (the new rows' pairs found twice), and a LEFT JOIN of the state that looked such pairs up as
// NULL in the raw table 130-170.
struct History {
  StateMap state;
  std::vector<JudgedEvent> raw;
};

History read_history(MysqlSession& s, const RawTable& t, std::uint64_t from, std::uint64_t to,
                     std::int64_t history_from_ms, bool with_state) {
  const std::string time = std::string("h.") + t.time_column;
  const std::string pairs = std::string("SELECT DISTINCT client_hash, offer_id FROM ") + t.name +
                            " WHERE id > ? AND id <= ? AND client_hash IS NOT NULL AND ignored "
                            "IS NULL";
  const std::string raw = "SELECT HEX(h.client_hash), h.offer_id, " + time_ms(time.c_str()) +
                          ", NULL, NULL FROM n JOIN " + t.name +
                          " h ON h.client_hash = n.client_hash AND h.offer_id = n.offer_id AND " +
                          time + " > TIMESTAMPADD(MICROSECOND, ? * 1000, " + kEpoch +
                          ") WHERE h.id <= ? AND h.ignored IS NULL";
  std::string sql = "WITH n AS (" + pairs + ") " + raw;
  if (with_state) {
    sql +=
        " AND NOT EXISTS (SELECT 1 FROM rate_limit_state s WHERE s.kind = ? AND s.client_hash = "
        "n.client_hash AND s.offer_id = n.offer_id) UNION ALL SELECT HEX(s.client_hash), "
        "s.offer_id, NULL, s.counted, " +
        time_ms("s.last_at") +
        " FROM n JOIN rate_limit_state s ON s.kind = ? AND s.client_hash = n.client_hash AND "
        "s.offer_id = n.offer_id";
  }
  auto& st = s.prepared(sql);
  unsigned i = 1;
  st.setUInt64(i++, from);
  st.setUInt64(i++, to);
  st.setInt64(i++, history_from_ms);
  st.setUInt64(i++, from);
  if (with_state) {
    st.setString(i++, t.limit_kind);
    st.setString(i++, t.limit_kind);
  }
  const auto rs = query(st);
  History out;
  while (rs->next()) {
    RateJudge::Key key{unhex_client(rs->getString(1).asStdString()), rs->getUInt64(2)};
    if (rs->isNull(3)) {
      out.state[key] = PairState{decode_counted(rs->getString(4).asStdString()), rs->getInt64(5)};
    } else {
      out.raw.push_back(JudgedEvent{0, std::move(key), rs->getInt64(3)});
    }
  }
  return out;
}

void mark(MysqlSession& s, const RawTable& t, const std::vector<std::uint64_t>& over) {
  for (std::size_t at = 0; at < over.size(); at += kMarkChunk) {
    const std::size_t n = std::min(kMarkChunk, over.size() - at);
    const std::size_t shape = padded_rows(n, kMarkChunk);
    std::string sql =
        std::string("UPDATE ") + t.name + " SET ignored = 'rate_limited' WHERE id IN (";
    for (std::size_t i = 0; i < shape; ++i) sql += i == 0 ? "?" : ", ?";
    sql += ")";
    auto& st = s.prepared(sql);
    for (std::size_t i = 0; i < shape; ++i) {
      st.setUInt64(static_cast<unsigned>(i + 1), over[at + std::min(i, n - 1)]);
    }
    st.executeUpdate();
  }
}

struct StateRow {
  RateJudge::Key key;
  std::string counted;
  std::int64_t last_ms = 0;
};

void write_state(MysqlSession& s, const RawTable& t, std::int64_t window_ms,
                 const std::vector<StateRow>& rows) {
  for (std::size_t at = 0; at < rows.size(); at += kStateChunk) {
    const std::size_t n = std::min(kStateChunk, rows.size() - at);
    const std::size_t shape = padded_rows(n, kStateChunk);
    std::string sql =
        "INSERT INTO rate_limit_state (kind, client_hash, offer_id, counted, window_ms, last_at) "
        "VALUES ";
    for (std::size_t i = 0; i < shape; ++i) {
      sql += i == 0 ? "" : ", ";
      sql += std::string("(?, UNHEX(?), ?, ?, ?, TIMESTAMPADD(MICROSECOND, ? * 1000, ") + kEpoch +
             "))";
    }
    sql +=
        " ON DUPLICATE KEY UPDATE counted = VALUES(counted), window_ms = VALUES(window_ms), "
        "last_at = VALUES(last_at)";
    auto& st = s.prepared(sql);
    unsigned p = 1;
    for (std::size_t i = 0; i < shape; ++i) {
      const auto& r = rows[at + std::min(i, n - 1)];
      st.setString(p++, t.limit_kind);
      st.setString(p++, crypto::to_hex(util::as_chars(r.key.first)));
      st.setUInt64(p++, r.key.second);
      st.setString(p++, r.counted);
      st.setInt64(p++, window_ms);
      st.setInt64(p++, r.last_ms);
    }
    st.executeUpdate();
  }
}

}  // namespace

void judge_limits(MysqlSession& s, const RawTable& t, std::uint64_t from, std::uint64_t to,
                  RateJudge& judge, std::vector<NewRow>& rows) {
  std::vector<JudgedEvent> fresh;  // the new rows that count, in id order
  for (const auto& r : rows) {
    if (r.client && r.event.reason.empty()) {
      fresh.push_back(JudgedEvent{r.id, {*r.client, r.event.offer_id}, r.event.at_ms});
    }
  }
  if (fresh.empty()) return;
  // History starts the longest window before the earliest new row.
  std::int64_t earliest = fresh.front().at_ms;
  for (const auto& r : fresh) earliest = std::min(earliest, r.at_ms);
  const bool with_state = prune_state(s, t, judge.longest_ms()) && state_among(s, t, fresh);
  History read = read_history(s, t, from, to, earliest - judge.longest_ms(), with_state);
  const StateMap& state = read.state;
  std::vector<JudgedEvent>& history = read.raw;
  for (const auto& [key, pair] : state) {
    for (const auto at : pair.counted) history.push_back(JudgedEvent{0, key, at});
  }
  // Only the rows of a client and offer that can be over a limit are judged: every window that
  // is on allows at least one event, so a pair with one new row and no history is never over.
  // That is the common case; leaving it out keeps the judge's per-pair windows small. A pair with
  // state is always judged, so that its state stays complete.
  std::unordered_map<RateJudge::Key, std::size_t, KeyHash> seen;  // new rows per pair
  seen.reserve(fresh.size());
  for (const auto& r : fresh) ++seen[r.key];
  for (const auto& h : history) seen[h.key] += 2;  // any history makes the pair a candidate
  for (const auto& entry : state) seen[entry.first] += 2;
  std::erase_if(fresh, [&seen](const JudgedEvent& r) { return seen[r.key] < 2; });
  if (fresh.empty()) return;
  const std::vector<std::uint64_t> over = rate_limited_ids(judge, history, fresh);
  mark(s, t, over);
  // The same marks on the rows as read (both in id order).
  auto next = over.begin();
  for (auto& r : rows) {
    if (next == over.end()) break;
    if (r.id == *next) {
      r.event.reason = "rate_limited";
      ++next;
    }
  }
  // The state of the pairs over a limit now, or kept already: their counted times from now on.
  std::unordered_map<RateJudge::Key, PairPass, KeyHash> passed;
  next = over.begin();
  for (const auto& r : fresh) {  // a subsequence of `rows`, in id order like `over`
    auto& p = passed[r.key];
    p.latest_ms = std::max(p.latest_ms, r.at_ms);
    const bool marked = next != over.end() && *next == r.id;
    if (marked) ++next;
    (marked ? p.marked : p.counted) = true;
  }
  std::vector<StateRow> writes;
  for (const auto& [key, p] : passed) {
    const auto kept = state.find(key);
    std::int64_t last_ms = p.latest_ms;
    if (kept == state.end()) {
      if (!p.marked) continue;  // never over a limit lately: its history is the raw table's
    } else {
      last_ms = std::max(last_ms, kept->second.last_ms);
      if (!p.counted && last_ms - kept->second.last_ms < kLastAtSlackMs) continue;  // unchanged
    }
    writes.push_back(StateRow{key, encode_counted(judge.counted(key)), last_ms});
  }
  write_state(s, t, judge.longest_ms(), writes);
}

void forget_limit_state(MysqlSession& s, const RawTable& t) {
  auto& st = s.prepared("DELETE FROM rate_limit_state WHERE kind = ?");
  st.setString(1, t.limit_kind);
  st.executeUpdate();
}

}  // namespace placard::db
