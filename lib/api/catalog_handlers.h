#pragma once
#include "lib/catalog/snapshot.h"
#include "lib/http/request.h"
#include "lib/http/response.h"

namespace placard::api {

// GET /api/v1/config and GET /api/v1/categories: pre-rendered in the snapshot, with ETag/304.
http::Response get_config(const http::Request& request, const catalog::Snapshot& snapshot);
http::Response get_categories(const http::Request& request, const catalog::Snapshot& snapshot);

}  // namespace placard::api
