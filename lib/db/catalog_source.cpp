#include "lib/db/catalog_source.h"

#include <algorithm>

#include "lib/db/catalog_version.h"
#include "lib/store/catalog_loader.h"

namespace placard::db {

namespace {
// A replica that failed is not asked again for this long (the primary serves meanwhile): an
// unreachable host costs up to the connect timeout (2 s) of one load per period, not of each.
constexpr std::chrono::milliseconds kReplicaRetry{10000};

std::int64_t nanoseconds(catalog::ReplicaChoice::Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
}  // namespace

CatalogSource::CatalogSource(ConnectionParams primary, std::optional<ConnectionParams> replica,
                             std::chrono::milliseconds max_lag, Report report)
    : primary_(std::move(primary)), choice_(max_lag, kReplicaRetry), report_(std::move(report)) {
  if (replica) replica_.emplace(std::move(*replica));
}

std::uint64_t CatalogSource::read_version() {
  wanted_ = read_catalog_version(primary_);
  return wanted_;
}

std::optional<std::uint64_t> CatalogSource::replica_version() {
  const auto now = catalog::ReplicaChoice::Clock::now();
  if (!replica_ || !choice_.ask_replica(now)) return std::nullopt;
  try {
    return read_catalog_version(*replica_);
  } catch (const std::exception& e) {
    if (on_replica_.value_or(true)) {
      report_(std::string("catalog: replica unavailable, reading the primary: ") + e.what());
    }
    on_replica_ = false;
    choice_.replica_failed(now);
    return std::nullopt;
  }
}

std::shared_ptr<const catalog::Snapshot> CatalogSource::load(std::int64_t now,
                                                             std::vector<std::string>& problems) {
  if (replica_) {
    const auto version = replica_version();
    const auto from = choice_.choose(wanted_, version, catalog::ReplicaChoice::Clock::now());
    publish_lag(version.has_value());
    // Waiting is for a worker that has a snapshot to serve meanwhile; the first one is loaded.
    if (from == catalog::ReadFrom::wait && loaded_) return nullptr;
    if (from == catalog::ReadFrom::replica) {
      try {
        auto s = load_snapshot(*replica_, now, problems);
        if (!on_replica_.value_or(false)) report_("catalog: snapshots from the replica");
        on_replica_ = true;
        last_from_replica_ = 1;
        loaded_ = true;
        return s;
      } catch (const std::exception& e) {
        report_(std::string("catalog: replica failed, reading the primary: ") + e.what());
        choice_.replica_failed(catalog::ReplicaChoice::Clock::now());
      }
    } else if (on_replica_.value_or(true)) {
      report_(version ? "catalog: replica behind past db.read_max_lag_seconds, reading the primary"
                      : "catalog: reading the primary");
    }
    on_replica_ = false;
    last_from_replica_ = 0;
  }
  auto s = load_snapshot(primary_, now, problems);
  loaded_ = true;
  return s;
}

void CatalogSource::publish_lag(bool answered) {
  // The gauge shows the choice's own clock, so it restarts when the choice's does.
  const auto since = choice_.behind_since();
  if (!answered) {
    behind_since_ns_ = -1;
  } else if (!since) {
    behind_since_ns_ = 0;
  } else {
    // 0 and below mean "current" and "unknown".
    behind_since_ns_ = std::max<std::int64_t>(nanoseconds(*since), 1);
  }
}

std::optional<double> CatalogSource::replica_lag_seconds() const {
  if (!replica_) return std::nullopt;
  const std::int64_t since = behind_since_ns_.load();
  if (since < 0) return std::nullopt;
  if (since == 0) return 0.0;
  return static_cast<double>(nanoseconds(catalog::ReplicaChoice::Clock::now()) - since) / 1e9;
}

std::optional<double> CatalogSource::from_replica() const {
  if (!replica_) return std::nullopt;
  return static_cast<double>(last_from_replica_.load());
}

}  // namespace placard::db
