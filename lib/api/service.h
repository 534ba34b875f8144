#pragma once
#include <string>

#include "lib/api/services.h"
#include "lib/http/client_address.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/http/router.h"

namespace placard::api {

// One per request thread: routes a request, applies the public CORS rules (contract section 5),
// turns every failure into the contract's error envelope (detail to the log, never to the
// client), stamps X-Request-Id, and marks every admin answer Cache-Control: no-store.
// Where the service sits (config keys `base_path`, `trusted_proxies`): every request's path is
// first made relative to the base (outside it: 404 not_found), and a trusted proxy's report that
// the client used HTTPS (X-Forwarded-Proto, Forwarded: proto=) sets request.https.
struct Frontage {
  std::string base_path;  // "" (the root) or e.g. "/offers"; validated by config::check_base_path
  http::TrustedProxies trusted_proxies;
};

class Service {
 public:
  // router: the public routes (make_router) and, in the worker, the admin routes.
  // catalog: when given, the snapshot is taken from it once per request and held in
  // shared.snapshots (then a holder of this Service's own) until the answer is made, so that
  // everything the request reads (its Origin check, its handler, its Vary) sees one catalog.
  // frontage: the base path and public origin (lib/api/frontage.h).
  Service(const SharedServices& shared, http::Router router, Frontage frontage = {},
          const catalog::SnapshotHolder* catalog = nullptr);
  http::Response handle(http::Request& request);

 private:
  http::Response guarded(http::Request& request);
  http::Response preflight(const http::Request& request) const;
  http::Response answer(http::Request& request);
  // What an answer gets on its way out, taken from the request before the handler runs (an
  // answer completed later, on another thread, gets it from this copy).
  struct Outward {
    std::string allow_origin;  // a listed Origin, echoed; empty: none
    bool vary_origin = false;
    bool admin_api = false;
    bool https = false;
    std::string request_id;
    http::Response apply(http::Response response) const;
  };
  static Outward outward(const http::Request& request);
  const SharedServices& shared_;
  http::Router router_;
  const catalog::SnapshotHolder* catalog_;
  Frontage frontage_;
};

}  // namespace placard::api
