#pragma once
#include "lib/api/services.h"
#include "lib/http/router.h"

namespace placard::api {

// The public API (contract sections 1-4). Admin routes join this table under /admin/api/v1.
http::Router make_router(const SharedServices& shared, ThreadServices& thread);

}  // namespace placard::api
