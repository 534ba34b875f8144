#pragma once
#include "lib/db/event_store.h"
#include "lib/db/mysql_session.h"

namespace placard::db {

class MysqlEventStore : public EventStore {
 public:
  explicit MysqlEventStore(MysqlSession& session) : session_(session) {}
  bool record_impression(const EventRecord& event) override;
  bool impression_recorded(const std::array<unsigned char, 16>& nonce) override;
  bool record_click(const EventRecord& event) override;

 private:
  bool insert_ignore(const std::string& sql, const EventRecord& event);
  MysqlSession& session_;
};

}  // namespace placard::db
