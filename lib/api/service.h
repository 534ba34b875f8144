#pragma once
#include "lib/api/services.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/http/router.h"

namespace placard::api {

// One per request thread: routes a request, applies the public CORS rules (contract section 5),
// turns every failure into the contract's error envelope (detail to the log, never to the
// client), stamps X-Request-Id, and marks every admin answer Cache-Control: no-store.
class Service {
 public:
  // router: the public routes (make_router) and, in the worker, the admin routes.
  Service(const SharedServices& shared, http::Router router);
  http::Response handle(http::Request& request);

 private:
  http::Response guarded(http::Request& request);
  http::Response preflight(const http::Request& request) const;
  const SharedServices& shared_;
  http::Router router_;
};

}  // namespace placard::api
