#include "fcgi-app/background_jobs.h"

#include <algorithm>
#include <chrono>

#include "lib/api/rate_limits.h"

namespace placard::fcgi {

BackgroundJobs::BackgroundJobs(const config::ServerConfig& cfg, const db::ConnectionParams& params,
                               const catalog::SnapshotHolder& holder, network::SyncJob& sync_job,
                               const Report& report) {
  if (cfg.background_jobs != "workers") return;
  rollups_.emplace(
      params, std::chrono::seconds(1),
      db::RollupOptions{.late_after = std::chrono::seconds(cfg.rollup_late_check_seconds)},
      [&holder]() -> std::optional<db::RateLimits> {
        const auto snap = holder.get();
        if (!snap) return std::nullopt;
        return api::rate_limits(snap->settings);
      },
      report);
  if (cfg.retention_interval_seconds > 0) {
    const std::chrono::seconds interval(cfg.retention_interval_seconds);
    retention_.emplace(
        params, std::min(interval, std::chrono::seconds(30)), interval,
        [&holder,
         pending_days = cfg.auth.pending_days]() -> std::optional<db::RetentionJob::Settings> {
          const auto snap = holder.get();
          if (!snap) return std::nullopt;
          return db::RetentionJob::Settings{snap->settings.raw_event_retention_days,
                                            snap->settings.token_ttl_seconds, pending_days};
        },
        report);
  }
  sync_schedule_.emplace(
      params, std::chrono::seconds(cfg.network.schedule_check_seconds), sync_job,
      [&holder]() -> std::optional<int> {
        const auto snap = holder.get();
        if (!snap) return std::nullopt;
        return snap->settings.network_sync_interval_minutes;
      },
      report);
}

void BackgroundJobs::stop() {
  if (sync_schedule_) sync_schedule_->stop();
  if (retention_) retention_->stop();
  if (rollups_) rollups_->stop();
}

}  // namespace placard::fcgi
