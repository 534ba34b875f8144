#include "lib/api/services.h"
#include "lib/http/api_error.h"

namespace placard::api {

std::shared_ptr<const catalog::Snapshot> require_snapshot(const SharedServices& shared) {
  auto snapshot = shared.snapshots.get();
  if (!snapshot) throw http::service_unavailable("The catalog is not loaded yet");
  return snapshot;
}

}  // namespace placard::api
