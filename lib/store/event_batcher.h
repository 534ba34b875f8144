#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/store/click_store.h"
#include "lib/store/event_store.h"

namespace placard::db {

enum class EventTable { impressions, clicks };

// How the writer learns which rows of a multi-row insert were new.
enum class InsertFlavor {
  returning,    // MariaDB: one INSERT IGNORE ... RETURNING per batch
  transaction,  // portable (MySQL 8): one single-row INSERT IGNORE per event, one commit per batch
  automatic,    // RETURNING when the server says it is MariaDB
};

// Records impressions and clicks from every request thread through one writer thread and its
// own connection: whatever is queued while the previous batch commits goes into the next batch,
// so the database sees one statement and one commit for many events (the statistics rollups are
// counted later, off this path, by the rollup step: rollup_step.h). record() returns
// only after the commit, so "recorded" still means durable, and the unique key on the token nonce
// still decides, inside InnoDB, which of any concurrent retries (on any host) counts.
class EventBatcher {
 public:
  using Report = std::function<void(const std::string&)>;
  // report (optional) hears which way of inserting the writer settled on.
  EventBatcher(ConnectionParams params, std::size_t max_batch, InsertFlavor flavor,
               Report report = {});
  ~EventBatcher();
  EventBatcher(const EventBatcher&) = delete;
  EventBatcher& operator=(const EventBatcher&) = delete;

  // True when this call recorded the event, false when it was recorded before. Throws
  // DatabaseUnavailable or DatabaseError.
  bool record(EventTable table, const EventRecord& event);
  // record() without waiting: the event is copied, and `done` hears what record() would have
  // returned or thrown, on the writer's thread after its commit (or here, when the writer is
  // stopping). `done` must not throw, nor wait for the writer.
  using Done = std::function<void(bool recorded, const std::exception_ptr& error)>;
  void record_then(EventTable table, const EventRecord& event, Done done);
  // follow_click() without waiting: `decide` (kept here) runs on the writer's thread as before,
  // and `done` hears the offer decide was shown, or what follow_click() would have thrown.
  using Followed =
      std::function<void(std::optional<OfferTarget> offer, const std::exception_ptr& error)>;
  void follow_click_then(std::uint64_t offer_id, ClickStore::Decide decide, Followed done);

  // ClickStore::follow, batched: the offers of all queued clicks are read in one statement, each
  // click's decision runs on the writer thread, and the clicks to record go into one insert.
  std::optional<OfferTarget> follow_click(std::uint64_t offer_id, const ClickStore::Decide& decide);

  // Events waiting for the writer's next batch (the metrics' queue depth).
  std::size_t queued() {
    const std::lock_guard lock(mutex_);
    return queue_.size();
  }

 private:
  // Signalled once, by the writer. Not std::binary_semaphore: libstdc++'s acquire() spins and
  // calls sched_yield() before it sleeps, and a request waits here for a whole commit (a few
  // milliseconds), so the spinning only took CPU from the threads doing work (a quarter of the
  // worker's CPU in the click step of `make bench`). A condition variable sleeps at once.
  class Completion {
   public:
    void signal() {
      const std::lock_guard lock(mutex_);
      done_ = true;
      changed_.notify_one();  // under the lock: the waiter may destroy *this once it sees done_
    }
    void wait() {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return done_; });
    }

   private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool done_ = false;
  };

  struct Pending {
    EventTable table;
    const EventRecord* event = nullptr;          // the event to insert, once known
    std::uint64_t offer_id = 0;                  // clicks: the offer to read
    const ClickStore::Decide* decide = nullptr;  // clicks: what to record, given the offer
    std::optional<OfferTarget> target;           // clicks: the offer as read
    std::optional<EventRecord> decided;          // clicks: decide's answer
    bool recorded = false;
    std::exception_ptr error;
    Completion ready;  // signalled by the writer when the fields above are final
    // record_then(), follow_click_then(): their own copies, and whom to tell (nobody waits on
    // `ready`).
    std::optional<EventRecord> copy;
    std::optional<ClickStore::Decide> own_decide;
    std::function<void(Pending&)> tell;
  };
  void queue_owned(std::unique_ptr<Pending> p);
  // A queued event: waited for by its request (owned by it), or owned here (record_then).
  struct Queued {
    Pending* pending;
    std::unique_ptr<Pending> owned;
  };

  bool submit(Pending& p);
  void run();
  void write_batch(MysqlSession& session, std::vector<Pending*>& batch);
  void read_offers(MysqlSession& session, std::vector<Pending*>& clicks);
  void write(MysqlSession& session, EventTable table, std::vector<Pending*>& group);
  void write_returning(MysqlSession& session, EventTable table, std::vector<Pending*>& group);
  void write_in_transaction(MysqlSession& session, EventTable table, std::vector<Pending*>& group);
  // Events answered but not counted (prefetch, HEAD, crawler): one row per token, kind and
  // reason in ignored_events.
  void write_ignored(MysqlSession& session, std::vector<Pending*>& group);
  // The events of a group that this batch recorded (new rows): what the rollups count.

  ConnectionParams params_;
  std::size_t max_batch_;
  InsertFlavor flavor_;
  Report report_;
  bool announced_ = false;  // the insert flavor was reported
  std::mutex mutex_;
  std::condition_variable work_;
  std::deque<Queued> queue_;
  bool stopping_ = false;
  std::thread writer_;  // last: starts after everything above is ready
};

}  // namespace placard::db
