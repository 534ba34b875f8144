#pragma once
#include "lib/api/services.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/http/router.h"

namespace placard::api {

// One per request thread: routes a request, applies the public CORS rules (contract section 5),
// turns every failure into the contract's error envelope (detail to the log, never to the
// client), and stamps X-Request-Id.
class Service {
 public:
  Service(const SharedServices& shared, ThreadServices& thread);
  http::Response handle(http::Request& request);

 private:
  http::Response guarded(http::Request& request);
  http::Response preflight(const http::Request& request) const;
  const SharedServices& shared_;
  http::Router router_;
};

}  // namespace placard::api
