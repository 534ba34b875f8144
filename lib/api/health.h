#pragma once
#include "lib/api/services.h"
#include "lib/http/request.h"
#include "lib/http/response.h"

namespace placard::api {

// GET /healthz (contract section 0): 200 {"status":"ok","version":"0.9.0"} while the catalog
// snapshot is fresh and the database answers, otherwise 503 service_unavailable. Reads no
// database itself: freshness comes from the catalog poller's last successful round trip.
http::Response get_health(const http::Request& request, const SharedServices& shared);

}  // namespace placard::api
