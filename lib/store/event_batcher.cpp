#include "lib/store/event_batcher.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/db/transaction.h"
#include "lib/store/event_row_sql.h"
#include "lib/store/returned_nonce_match.h"
#include "lib/util/append_decimal.h"

namespace placard::db {

namespace {

const char* table_name(EventTable t) {
  return t == EventTable::impressions ? "impressions" : "clicks";
}

std::unique_ptr<sql::ResultSet> text_query(MysqlSession& session, const std::string& sql) {
  const std::unique_ptr<sql::Statement> st(session.connection().createStatement());
  return std::unique_ptr<sql::ResultSet>(st->executeQuery(sql));
}

bool is_mariadb(MysqlSession& session) {
  const auto rs = query(session.prepared("SELECT VERSION()"));
  return rs->next() && rs->getString(1).asStdString().find("MariaDB") != std::string::npos;
}

}  // namespace

EventBatcher::EventBatcher(ConnectionParams params, std::size_t max_batch, InsertFlavor flavor,
                           Report report)
    : params_(std::move(params)),
      max_batch_(std::max<std::size_t>(1, max_batch)),
      flavor_(flavor),
      report_(std::move(report)),
      writer_([this] { run(); }) {}

EventBatcher::~EventBatcher() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  writer_.join();
}

bool EventBatcher::record(EventTable table, const EventRecord& event) {
  Pending p{};
  p.table = table;
  p.event = &event;
  return submit(p);
}

std::optional<OfferTarget> EventBatcher::follow_click(std::uint64_t offer_id,
                                                      const ClickStore::Decide& decide) {
  Pending p{};
  p.table = EventTable::clicks;
  p.offer_id = offer_id;
  p.decide = &decide;
  submit(p);
  return std::move(p.target);
}

void EventBatcher::record_then(EventTable table, const EventRecord& event, Done done) {
  auto p = std::make_unique<Pending>();
  p->table = table;
  p->copy = event;
  p->event = &*p->copy;
  p->tell = [done = std::move(done)](Pending& q) { done(q.recorded, q.error); };
  queue_owned(std::move(p));
}

void EventBatcher::follow_click_then(std::uint64_t offer_id, ClickStore::Decide decide,
                                     Followed done) {
  auto p = std::make_unique<Pending>();
  p->table = EventTable::clicks;
  p->offer_id = offer_id;
  p->own_decide = std::move(decide);
  p->decide = &*p->own_decide;
  p->tell = [done = std::move(done)](Pending& q) { done(std::move(q.target), q.error); };
  queue_owned(std::move(p));
}

void EventBatcher::queue_owned(std::unique_ptr<Pending> p) {
  Pending& pending = *p;
  bool queued = false;
  {
    const std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Queued{&pending, std::move(p)});
      queued = true;
    }
  }
  if (queued) {
    work_.notify_one();
    return;
  }
  // Not queued: the writer is stopping.
  pending.error = std::make_exception_ptr(DatabaseUnavailable("the event writer is stopping"));
  pending.tell(pending);
}

bool EventBatcher::submit(Pending& p) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) throw DatabaseUnavailable("the event writer is stopping");
    queue_.push_back(Queued{&p, nullptr});
  }
  work_.notify_one();
  // Only this request's own completion: the writer wakes exactly the requests it answered.
  p.ready.wait();
  if (p.error) std::rethrow_exception(p.error);
  return p.recorded;
}

void EventBatcher::run() {
  const DriverThreadScope scope;
  MysqlSession session(params_);
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to write
    std::vector<Pending*> batch;
    std::vector<std::unique_ptr<Pending>> owned;  // record_then's: gone once told
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(queue_.front().pending);
      if (queue_.front().owned) owned.push_back(std::move(queue_.front().owned));
      queue_.pop_front();
    }
    lock.unlock();
    write_batch(session, batch);
    for (auto* p : batch) {
      if (!p->tell) {
        p->ready.signal();
        continue;
      }
      try {
        p->tell(*p);
      } catch (...) {  // NOLINT(bugprone-empty-catch): a listener's failure is not the writer's
      }
    }
    owned.clear();
    lock.lock();
  }
}

void EventBatcher::write_batch(MysqlSession& session, std::vector<Pending*>& batch) {
  std::vector<Pending*> clicks;
  std::copy_if(batch.begin(), batch.end(), std::back_inserter(clicks),
               [](const Pending* p) { return p->decide != nullptr; });
  if (!clicks.empty()) {
    try {
      read_offers(session, clicks);
    } catch (...) {
      for (auto* p : clicks) p->error = std::current_exception();
    }
    for (auto* p : clicks) {
      if (p->error) continue;
      try {
        p->decided = (*p->decide)(p->target);
        if (p->decided) p->event = &*p->decided;
      } catch (...) {
        p->error = std::current_exception();
      }
    }
  }
  // Counted events go to their table; events answered but not counted, to ignored_events.
  const auto to_write = [](const Pending* p, bool counted) {
    return p->event != nullptr && !p->error &&
           (p->event->ignored == IgnoredReason::none) == counted;
  };
  for (const EventTable table : {EventTable::impressions, EventTable::clicks}) {
    std::vector<Pending*> group;
    std::copy_if(batch.begin(), batch.end(), std::back_inserter(group),
                 [&](const Pending* p) { return p->table == table && to_write(p, true); });
    if (group.empty()) continue;
    try {
      write(session, table, group);
    } catch (...) {
      for (auto* p : group) p->error = std::current_exception();
    }
  }
  std::vector<Pending*> ignored;
  std::copy_if(batch.begin(), batch.end(), std::back_inserter(ignored),
               [&](const Pending* p) { return to_write(p, false); });
  if (!ignored.empty()) {
    try {
      write_ignored(session, ignored);
    } catch (...) {
      for (auto* p : ignored) p->error = std::current_exception();
    }
  }
}

void EventBatcher::write_ignored(MysqlSession& session, std::vector<Pending*>& group) {
  // At most one row per token, kind and reason (the unique key ignored_events_once, migration
  // 0010): the same token sent again and again by a crawler, as a prefetch or as HEAD writes one
  // row, not one per request. Idempotent, so retried on a new connection like the counted events;
  // the same order as write() for the same reason (no deadlocks between writers).
  std::sort(group.begin(), group.end(),
            [](const Pending* a, const Pending* b) { return a->event->nonce < b->event->nonce; });
  std::string sql =
      "INSERT IGNORE INTO ignored_events (kind, reason, token_nonce, offer_id, placement, country) "
      "VALUES ";
  for (std::size_t i = 0; i < group.size(); ++i)
    sql += i == 0 ? "(?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?)";
  session.run(true, [&](MysqlSession& s) {
    auto& st = s.prepared(sql);
    for (std::size_t i = 0; i < group.size(); ++i) {
      const auto first = static_cast<unsigned>(6 * i + 1);
      const EventRecord& e = *group[i]->event;
      st.setString(first, group[i]->table == EventTable::impressions ? "impression" : "click");
      st.setString(first + 1, std::string(ignored_reason_name(e.ignored)));
      st.setString(first + 2, bytes_of(e.nonce));
      st.setUInt64(first + 3, e.offer_id);
      st.setString(first + 4, e.placement);
      st.setString(first + 5, e.country);
    }
    st.executeUpdate();
  });
  for (auto* p : group) p->recorded = false;  // answered, not counted
}

void EventBatcher::read_offers(MysqlSession& session, std::vector<Pending*>& clicks) {
  std::vector<std::uint64_t> ids;
  ids.reserve(clicks.size());
  for (const auto* p : clicks) ids.push_back(p->offer_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string sql =
      "SELECT id, enabled, is_demo, network, tracking_url, "
      "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', valid_from), "
      "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', valid_until) FROM offers WHERE id IN (";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) sql += ", ";
    util::append_decimal(sql, ids[i]);
  }
  sql += ")";
  std::unordered_map<std::uint64_t, OfferTarget> found;
  session.run(true, [&](MysqlSession& s) {
    found.clear();
    const auto rs = text_query(s, sql);
    while (rs->next()) {
      OfferTarget t;
      t.id = rs->getUInt64(1);
      t.enabled = rs->getBoolean(2);
      t.is_demo = rs->getBoolean(3);
      t.network = rs->getString(4).asStdString();
      if (!rs->isNull(5)) t.tracking_url = rs->getString(5).asStdString();
      if (!rs->isNull(6)) t.valid_from = rs->getInt64(6);
      if (!rs->isNull(7)) t.valid_until = rs->getInt64(7);
      found.emplace(t.id, std::move(t));
    }
  });
  for (auto* p : clicks) {
    const auto it = found.find(p->offer_id);
    if (it != found.end()) p->target = it->second;
  }
}

void EventBatcher::write(MysqlSession& session, EventTable table, std::vector<Pending*>& group) {
  // One order for every writer on every host, so two batches never wait on each other's keys
  // in opposite orders (deadlocks).
  std::sort(group.begin(), group.end(),
            [](const Pending* a, const Pending* b) { return a->event->nonce < b->event->nonce; });
  session.run(true, [&](MysqlSession& s) {
    if (flavor_ == InsertFlavor::automatic) {
      flavor_ = is_mariadb(s) ? InsertFlavor::returning : InsertFlavor::transaction;
    }
    if (report_ && !announced_) {
      report_(flavor_ == InsertFlavor::returning
                  ? "events: batched inserts with INSERT IGNORE ... RETURNING"
                  : "events: batched inserts in transactions of single-row inserts");
      announced_ = true;  // once
    }
    if (flavor_ == InsertFlavor::returning) {
      write_returning(s, table, group);
    } else {
      write_in_transaction(s, table, group);
    }
  });
}

void EventBatcher::write_returning(MysqlSession& session, EventTable table,
                                   std::vector<Pending*>& group) {
  std::string sql = std::string("INSERT IGNORE INTO ") + table_name(table) + kEventColumns;
  sql.reserve(sql.size() + group.size() * 160 + 32);
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i > 0) sql += ", ";
    append_event_row(sql, *group[i]->event);
  }
  sql += " RETURNING HEX(token_nonce)";
  // The rows this statement inserted: each one answers exactly one request `recorded`.
  std::vector<std::string> returned;
  const auto rs = text_query(session, sql);
  while (rs->next()) returned.push_back(rs->getString(1).asStdString());
  std::vector<std::string> nonces;
  nonces.reserve(group.size());
  for (const auto* p : group) nonces.push_back(nonce_hex_upper(*p->event));
  const auto recorded = match_returned_nonces(nonces, returned);
  for (std::size_t i = 0; i < group.size(); ++i) group[i]->recorded = recorded[i];
}

void EventBatcher::write_in_transaction(MysqlSession& session, EventTable table,
                                        std::vector<Pending*>& group) {
  auto& st = session.prepared(std::string("INSERT IGNORE INTO ") + table_name(table) +
                              kEventColumns + kEventRowParams);
  Transaction tx(session, Transaction::Mode::read_write, report_);
  for (auto* p : group) {
    bind_event_row(st, 1, *p->event);
    p->recorded = st.executeUpdate() == 1;  // 0: the nonce is there already (a duplicate)
  }
  tx.commit();
}

}  // namespace placard::db
