#include "lib/store/mysql_event_store.h"

#include "lib/crypto/sha256.h"

namespace placard::db {

bool MysqlEventStore::record_impression(const EventRecord& event) {
  if (before_waiting_) before_waiting_();
  return batcher_.record(EventTable::impressions, event);
}

void MysqlEventStore::record_impression_then(const EventRecord& event, const Recorded& done) {
  batcher_.record_then(EventTable::impressions, event, done);
}

std::optional<OfferTarget> MysqlEventStore::follow(std::uint64_t offer_id, const Decide& decide) {
  if (before_waiting_) before_waiting_();
  return batcher_.follow_click(offer_id, decide);
}

void MysqlEventStore::follow_then(std::uint64_t offer_id, const Decide& decide,
                                  const Followed& done) {
  batcher_.follow_click_then(offer_id, decide, done);
}

void MysqlEventStore::record_ignored(const EventRecord& event) {
  batcher_.record(EventTable::clicks, event);
}

bool MysqlEventStore::impression_recorded(const std::array<unsigned char, 16>& nonce) {
  return session_.run(true, [&](MysqlSession& s) {
    auto& st = s.prepared("SELECT 1 FROM impressions WHERE token_nonce = UNHEX(?)");
    st.setString(1, crypto::to_hex(std::string_view(reinterpret_cast<const char*>(nonce.data()),
                                                    nonce.size())));
    return query(st)->next();
  });
}

}  // namespace placard::db
