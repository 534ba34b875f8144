#include "lib/metrics/worker_gauges.h"

#include <optional>

#include "lib/util/service_version.h"
#include "lib/util/time_format.h"

namespace placard::metrics {

void add_worker_gauges(Registry& registry, const catalog::SnapshotHolder& snapshots,
                       std::function<std::size_t()> queued_events, std::function<bool()> fresh) {
  registry.gauge("placard_event_writer_queued",
                 "Impressions and clicks waiting for the event writer's next batch", {},
                 [queued = std::move(queued_events)] { return static_cast<double>(queued()); });
  registry.gauge("placard_catalog_snapshot_age_seconds",
                 "Seconds since the catalog snapshot in use was built (it is rebuilt when the "
                 "catalog changes; absent before the first snapshot)",
                 {}, [&snapshots]() -> std::optional<double> {
                   const auto snap = snapshots.get();
                   if (!snap) return std::nullopt;
                   return static_cast<double>(util::unix_now() - snap->built_at);
                 });
  registry.gauge("placard_catalog_version", "Catalog version of the snapshot in use", {},
                 [&snapshots]() -> std::optional<double> {
                   const auto snap = snapshots.get();
                   if (!snap) return std::nullopt;
                   return static_cast<double>(snap->version);
                 });
  registry.gauge("placard_catalog_fresh",
                 "1 while the catalog poll confirmed the snapshot lately (GET /healthz answers "
                 "200), else 0",
                 {}, [fresh = std::move(fresh)] { return fresh() ? 1.0 : 0.0; });
  registry.gauge("placard_build_info", "Always 1; the release in a label",
                 {{"version", util::service_version()}}, [] { return 1.0; });
}

}  // namespace placard::metrics
