#pragma once
#include <cstddef>
#include <functional>

#include "lib/catalog/snapshot_holder.h"
#include "lib/metrics/registry.h"

namespace placard::metrics {

// The worker's own gauges: the event writer's queue (queued_events: db::EventBatcher::queued), the
// catalog snapshot's age and whether the catalog poll reached the database lately (GET /healthz's
// verdict). Everything read lives as long as the registry (serve_api's scope).
void add_worker_gauges(Registry& registry, const catalog::SnapshotHolder& snapshots,
                       std::function<std::size_t()> queued_events, std::function<bool()> fresh);

}  // namespace placard::metrics
