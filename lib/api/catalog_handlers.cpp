#include "lib/api/catalog_handlers.h"

#include "lib/http/negotiation.h"

namespace placard::api {

namespace {
http::Response cached_json(const http::Request& request, const std::string& body,
                           const std::string& etag) {
  http::Response r;
  if (http::etag_matches(request.header("if-none-match"), etag)) {
    r.status = 304;
  } else {
    r = http::Response::json(200, body);
  }
  r.set_header("ETag", etag);
  // Clients may keep a copy but must revalidate: an administrator's change shows at once.
  r.set_header("Cache-Control", "no-cache");
  return r;
}
}  // namespace

http::Response get_config(const http::Request& request, const catalog::Snapshot& snapshot) {
  return cached_json(request, snapshot.config_json, snapshot.config_etag);
}

http::Response get_categories(const http::Request& request, const catalog::Snapshot& snapshot) {
  return cached_json(request, snapshot.categories_json, snapshot.categories_etag);
}

}  // namespace placard::api
