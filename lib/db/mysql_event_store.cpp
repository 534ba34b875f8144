#include "lib/db/mysql_event_store.h"

#include "lib/crypto/sha256.h"

namespace placard::db {

namespace {
std::string hex(const std::array<unsigned char, 16>& nonce) {
  return crypto::to_hex(
      std::string_view(reinterpret_cast<const char*>(nonce.data()), nonce.size()));
}
}  // namespace

// INSERT IGNORE on the unique token key: idempotent, so a lost connection may be retried, and
// concurrent duplicates resolve inside InnoDB (one row, one "recorded"). Autocommit: when this
// returns, the row is committed.
bool MysqlEventStore::insert_ignore(const std::string& sql, const EventRecord& e) {
  return session_.run(true, [&](MysqlSession& s) {
    auto& st = s.prepared(sql);
    st.setString(1, hex(e.nonce));
    st.setUInt64(2, e.offer_id);
    st.setString(3, e.placement);
    st.setString(4, e.country);
    st.setInt64(5, e.issued_at);
    return st.executeUpdate() == 1;
  });
}

bool MysqlEventStore::record_impression(const EventRecord& event) {
  return insert_ignore(
      "INSERT IGNORE INTO impressions (token_nonce, offer_id, placement, country, issued_at) "
      "VALUES (UNHEX(?), ?, ?, ?, FROM_UNIXTIME(?))",
      event);
}

bool MysqlEventStore::record_click(const EventRecord& event) {
  return insert_ignore(
      "INSERT IGNORE INTO clicks (token_nonce, offer_id, placement, country, issued_at) "
      "VALUES (UNHEX(?), ?, ?, ?, FROM_UNIXTIME(?))",
      event);
}

bool MysqlEventStore::impression_recorded(const std::array<unsigned char, 16>& nonce) {
  return session_.run(true, [&](MysqlSession& s) {
    auto& st = s.prepared("SELECT 1 FROM impressions WHERE token_nonce = UNHEX(?)");
    st.setString(1, hex(nonce));
    return query(st)->next();
  });
}

}  // namespace placard::db
