#include "lib/api/catalog_handlers.h"

#include "lib/http/gzip.h"
#include "lib/http/negotiation.h"

namespace placard::api {

namespace {
// The cached answer in the representation the client accepts (gzip when it may), 304 when its
// copy of that representation is current.
http::Response cached_json(const http::Request& request, const catalog::Snapshot::CachedAnswer& a) {
  const bool gzip = http::accepts_gzip(request.header("accept-encoding"));
  const std::string& etag = gzip ? a.gzip_etag : a.etag;
  http::Response r;
  if (http::etag_matches(request.header("if-none-match"), etag)) {
    r.status = 304;
  } else {
    r = http::Response::json(200, gzip ? a.gzip : a.json);
    if (gzip) r.set_header("Content-Encoding", "gzip");
  }
  r.set_header("ETag", etag);
  r.set_header("Vary", "Accept-Encoding");
  // Clients may keep a copy but must revalidate: an administrator's change shows at once.
  r.set_header("Cache-Control", "no-cache");
  return r;
}
}  // namespace

http::Response get_config(const http::Request& request, const catalog::Snapshot& snapshot) {
  return cached_json(request, snapshot.config_answer);
}

http::Response get_categories(const http::Request& request, const catalog::Snapshot& snapshot) {
  return cached_json(request, snapshot.categories_answer);
}

}  // namespace placard::api
