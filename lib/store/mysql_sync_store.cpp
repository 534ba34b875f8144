#include "lib/store/mysql_sync_store.h"

#include <algorithm>
#include <memory>
#include <set>
#include <unordered_map>
#include <variant>

#include "lib/json/flat_object.h"
#include "lib/store/mysql_network_store.h"
#include "lib/store/sync_plan_writer.h"

namespace placard::db {

namespace {

network::Overrides parse_overrides(const std::string& set) {
  network::Overrides o;
  std::size_t start = 0;
  while (start <= set.size()) {
    const auto comma = set.find(',', start);
    const auto end = comma == std::string::npos ? set.size() : comma;
    const auto name = set.substr(start, end - start);
    if (name == "enabled") o.enabled = true;
    if (name == "priority") o.priority = true;
    if (name == "category") o.category = true;
    if (name == "countries") o.countries = true;
    if (name == "validity") o.validity = true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return o;
}

std::string run_audit_json(std::uint64_t run_id, const SyncCounts& c) {
  return json::FlatObject()
      .add("syncRun", std::to_string(run_id))
      .add("created", c.created)
      .add("updated", c.updated)
      .add("disabled", c.disabled)
      .add("skipped", c.skipped)
      .str();
}

}  // namespace

bool MysqlSyncStore::try_lock() {
  if (lock_ && lock_->held()) return true;
  lock_.reset();
  return db_.call([&](MysqlSession& s) {
    lock_.emplace(s, kLockName, 0);
    if (!lock_->held()) lock_.reset();
    return lock_.has_value();
  });
}

void MysqlSyncStore::unlock() {
  lock_.reset();
}

std::uint32_t MysqlSyncStore::fail_interrupted_runs() {
  return db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE sync_runs SET status = 'failed', finished_at = UTC_TIMESTAMP(), "
        "message = 'The sync was interrupted (the worker running it stopped); the catalog was "
        "left as it was.' WHERE status = 'running'");
    return static_cast<std::uint32_t>(st.executeUpdate());
  });
}

std::optional<network::StoredCredentials> MysqlSyncStore::credentials(const std::string& network) {
  return MysqlNetworkStore(db_).credentials(network);
}

std::uint64_t MysqlSyncStore::start_run(const std::string& network) {
  return db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "INSERT INTO sync_runs (network, status, started_at) VALUES (?, 'running', "
        "UTC_TIMESTAMP())");
    st.setString(1, network);
    st.executeUpdate();
    const auto rs = query(s.prepared("SELECT LAST_INSERT_ID()"));
    return rs->next() ? rs->getUInt64(1) : std::uint64_t{0};
  });
}

void MysqlSyncStore::progress(std::uint64_t run_id, int pages_done, int pages_total) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("UPDATE sync_runs SET pages_done = ?, pages_total = ? WHERE id = ?");
    st.setInt(1, std::max(pages_done, 0));
    st.setInt(2, std::max(pages_total, 0));
    st.setUInt64(3, run_id);
    st.executeUpdate();
    if (lock_) lock_->renew();  // the job lease (lib/db/named_lock.h) runs on with the sync
  });
}

void MysqlSyncStore::finish_run(std::uint64_t run_id, bool succeeded, std::uint32_t seen,
                                const SyncCounts& c, const std::optional<std::string>& error) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE sync_runs SET status = ?, finished_at = UTC_TIMESTAMP(), offers_seen = ?, "
        "offers_created = ?, offers_updated = ?, offers_disabled = ?, offers_skipped = ?, "
        "message = ? WHERE id = ?");
    st.setString(1, succeeded ? "succeeded" : "failed");
    st.setUInt(2, seen);
    st.setUInt(3, c.created);
    st.setUInt(4, c.updated);
    st.setUInt(5, c.disabled);
    st.setUInt(6, c.skipped);
    if (error) {
      st.setString(7, error->substr(0, 1000));
    } else {
      st.setNull(7, sql::DataType::VARCHAR);
    }
    st.setUInt64(8, run_id);
    st.executeUpdate();
  });
}

std::map<std::string, std::optional<std::uint32_t>> MysqlSyncStore::category_map(
    const std::string& network) {
  return db_.call([&](MysqlSession& s) { return read_category_map(s, network); });
}

std::vector<network::ExistingOffer> MysqlSyncStore::imported_offers(const std::string& network) {
  return db_.call([&](MysqlSession& s) {
    std::vector<network::ExistingOffer> out;
    auto& st =
        s.prepared("SELECT id, external_id, enabled, overrides FROM offers WHERE network = ?");
    st.setString(1, network);
    const auto rs = query(st);
    while (rs->next()) {
      network::ExistingOffer e;
      e.id = rs->getUInt64(1);
      e.external_id = rs->isNull(2) ? std::string() : rs->getString(2).asStdString();
      e.enabled = rs->getBoolean(3);
      e.overrides = parse_overrides(rs->getString(4).asStdString());
      out.push_back(std::move(e));
    }
    return out;
  });
}

std::vector<std::string> MysqlSyncStore::country_codes() {
  return db_.call([&](MysqlSession& s) {
    std::vector<std::string> out;
    const auto rs = query(s.prepared("SELECT code FROM countries ORDER BY code"));
    while (rs->next()) out.push_back(rs->getString(1).asStdString());
    return out;
  });
}

SyncCounts MysqlSyncStore::apply(const std::string& network, const network::SyncPlan& plan,
                                 std::uint64_t run_id, std::optional<std::uint64_t> account_id) {
  SyncCounts counts;
  counts.created = static_cast<std::uint32_t>(plan.create.size());
  counts.updated = static_cast<std::uint32_t>(plan.update.size());
  counts.disabled = static_cast<std::uint32_t>(plan.disable.size());
  counts.skipped = plan.skipped;
  db_.run([&] {
    db_.call([&](MysqlSession& s) { write_sync_plan(s, network, plan); });
    db_.audit(
        {account_id, "network.sync", "network:" + network, "", run_audit_json(run_id, counts)});
    db_.bump_catalog_version();
  });
  return counts;
}

}  // namespace placard::db
