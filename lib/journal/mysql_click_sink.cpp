#include "lib/journal/mysql_click_sink.h"

#include <algorithm>
#include <string>

#include "lib/crypto/sha256.h"
#include "lib/db/transaction.h"

namespace placard::journal {

namespace {

std::string hex(const std::array<unsigned char, 16>& bytes) {
  return crypto::to_hex(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

void MysqlClickSink::write(const std::vector<db::EventRecord>& records) {
  std::vector<const db::EventRecord*> rows;
  rows.reserve(records.size());
  for (const auto& r : records) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(),
            [](const auto* a, const auto* b) { return a->nonce < b->nonce; });
  session_.run(true, [&](db::MysqlSession& s) {
    auto& counted = s.prepared(
        "INSERT IGNORE INTO clicks (token_nonce, offer_id, placement, country, issued_at, "
        "client_hash) VALUES (UNHEX(?), ?, ?, ?, FROM_UNIXTIME(?), UNHEX(?))");
    auto& ignored = s.prepared(
        "INSERT IGNORE INTO ignored_events (kind, reason, token_nonce, offer_id, placement, "
        "country) VALUES ('click', ?, UNHEX(?), ?, ?, ?)");
    db::Transaction tx(s);
    for (const auto* e : rows) {
      if (e->ignored == db::IgnoredReason::none) {
        counted.setString(1, hex(e->nonce));
        counted.setUInt64(2, e->offer_id);
        counted.setString(3, e->placement);
        counted.setString(4, e->country);
        counted.setInt64(5, e->issued_at);
        if (e->client == db::ClientHash{}) {
          counted.setNull(6, sql::DataType::VARCHAR);  // unknown client: never limited
        } else {
          counted.setString(6, hex(e->client));
        }
        counted.executeUpdate();
      } else {
        ignored.setString(1, std::string(db::ignored_reason_name(e->ignored)));
        ignored.setString(2, hex(e->nonce));
        ignored.setUInt64(3, e->offer_id);
        ignored.setString(4, e->placement);
        ignored.setString(5, e->country);
        ignored.executeUpdate();
      }
    }
    tx.commit();
  });
}

}  // namespace placard::journal
