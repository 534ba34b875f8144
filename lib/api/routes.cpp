#include "lib/api/routes.h"

#include "lib/api/catalog_handlers.h"
#include "lib/api/clicks.h"
#include "lib/api/health.h"
#include "lib/api/impressions.h"
#include "lib/api/metrics_endpoint.h"
#include "lib/api/offers_query.h"
#include "lib/util/time_format.h"

namespace placard::api {

http::Router make_router(const SharedServices& shared, ThreadServices& thread) {
  http::Router r;
  r.add("GET", "/healthz", [&shared](http::Request& req) { return get_health(req, shared); });
  r.add("GET", "/metrics",
        [&shared](http::Request& req) { return get_metrics(req, shared.metrics); });
  r.add("GET", "/api/v1/config",
        [&shared](http::Request& req) { return get_config(req, *require_snapshot(shared)); });
  r.add("GET", "/api/v1/categories",
        [&shared](http::Request& req) { return get_categories(req, *require_snapshot(shared)); });
  r.add("POST", "/api/v1/offers/query", [&shared, &thread](http::Request& req) {
    return query_offers(req, *require_snapshot(shared), shared.keys, thread.macs, thread.rng,
                        thread.nonces, util::unix_now());
  });
  r.add("POST", "/api/v1/events/impression", [&shared, &thread](http::Request& req) {
    return record_impression(req, *require_snapshot(shared), shared.keys, thread.events,
                             thread.clients, util::unix_now());
  });
  r.add("GET", "/r/click/:offerId", [&shared, &thread](http::Request& req) {
    return follow_click(req, *require_snapshot(shared), shared.keys, thread.clicks, thread.clients,
                        util::unix_now());
  });
  return r;
}

}  // namespace placard::api
