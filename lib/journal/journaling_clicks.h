#pragma once
#include "lib/journal/click_journal.h"
#include "lib/store/click_store.h"

namespace placard::journal {

// A request thread's ClickStore with the host's click journal behind it: clicks go to the
// database as before; keep_for_later (the database unreachable) appends to the journal.
class JournalingClicks : public db::ClickStore {
 public:
  JournalingClicks(db::ClickStore& inner, ClickJournal& journal)
      : inner_(inner), journal_(journal) {}
  std::optional<db::OfferTarget> follow(std::uint64_t offer_id, const Decide& decide) override {
    return inner_.follow(offer_id, decide);
  }
  void follow_then(std::uint64_t offer_id, const Decide& decide, const Followed& done) override {
    inner_.follow_then(offer_id, decide, done);
  }
  void record_ignored(const db::EventRecord& event) override { inner_.record_ignored(event); }
  bool keep_for_later(const db::EventRecord& event) override { return journal_.append(event); }

 private:
  db::ClickStore& inner_;
  ClickJournal& journal_;
};

}  // namespace placard::journal
