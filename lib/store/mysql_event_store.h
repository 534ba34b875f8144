#pragma once
#include <functional>

#include "lib/db/mysql_session.h"
#include "lib/store/click_store.h"
#include "lib/store/event_batcher.h"
#include "lib/store/event_store.h"

namespace placard::db {

// A request thread's view of the events: writes and click lookups go through the shared
// batcher, the rare read (was an expired token's impression recorded?) through the thread's own
// session.
class MysqlEventStore : public EventStore, public ClickStore {
 public:
  MysqlEventStore(MysqlSession& session, EventBatcher& batcher)
      : session_(session), batcher_(batcher) {}
  bool record_impression(const EventRecord& event) override;
  // Queued for the writer; `done` runs on the writer's thread after its commit.
  void record_impression_then(const EventRecord& event, const Recorded& done) override;
  bool impression_recorded(const std::array<unsigned char, 16>& nonce) override;
  std::optional<OfferTarget> follow(std::uint64_t offer_id, const Decide& decide) override;
  // Queued for the writer; `done` runs on the writer's thread after its commit.
  void follow_then(std::uint64_t offer_id, const Decide& decide, const Followed& done) override;
  void record_ignored(const EventRecord& event) override;
  // Called before each wait for the event writer (the worker gives its thread's turn away).
  void before_waiting(std::function<void()> hook) { before_waiting_ = std::move(hook); }

 private:
  MysqlSession& session_;
  EventBatcher& batcher_;
  std::function<void()> before_waiting_;
};

}  // namespace placard::db
