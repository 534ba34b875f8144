#pragma once
#include <functional>
#include <memory>

#include "lib/api/client_hasher.h"
#include "lib/catalog/snapshot.h"
#include "lib/catalog/snapshot_holder.h"
#include "lib/crypto/random_pool.h"
#include "lib/store/click_store.h"
#include "lib/store/event_store.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/fast_rng.h"
#include "lib/util/logger.h"

namespace placard::api {

class MetricsEndpoint;

// Shared by every request thread; read-only except through the holder.
struct SharedServices {
  catalog::SnapshotHolder& snapshots;
  const tokens::KeyRing& keys;
  util::Logger& log;
  // GET /healthz: whether the snapshot is fresh and the database answered lately (in the
  // worker, catalog::Refresher::fresh). Empty: a loaded snapshot counts as healthy.
  std::function<bool()> healthy{};
  // GET /metrics (lib/api/metrics_endpoint.h); null: the path answers 404.
  const MetricsEndpoint* metrics = nullptr;
};

// Owned by one request thread.
struct ThreadServices {
  db::EventStore& events;
  db::ClickStore& clicks;
  util::FastRng& rng;
  crypto::RandomPool& nonces;
  tokens::MacWorkspace& macs;  // for signing tokens without allocating
  ClientHasher& clients;       // per-client limits: the client address as the day's keyed hash
};

// The current snapshot, or 503 service_unavailable when none could be loaded yet.
std::shared_ptr<const catalog::Snapshot> require_snapshot(const SharedServices& shared);

}  // namespace placard::api
