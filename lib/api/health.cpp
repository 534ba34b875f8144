#include "lib/api/health.h"

#include <string>

#include "lib/http/api_error.h"
#include "lib/util/service_version.h"

namespace placard::api {

http::Response get_health(const http::Request& /*request*/, const SharedServices& shared) {
  const bool healthy = shared.healthy ? shared.healthy() : shared.snapshots.get() != nullptr;
  if (!healthy) {
    throw http::service_unavailable("The database does not answer or the catalog is not current");
  }
  // The version is digits and dots (the VERSION file), nothing to escape.
  auto response = http::Response::json(
      200, std::string(R"({"status":"ok","version":")") + util::service_version() + "\"}");
  response.set_header("Cache-Control", "no-store");
  return response;
}

}  // namespace placard::api
