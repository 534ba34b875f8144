#pragma once

// Requests as the gateway builds them, for the unit tests that need a client address.

#include <string>

#include "lib/http/request.h"

namespace placard::test {

// A request from `peer`, with an X-Forwarded-For header when `forwarded` is not empty.
inline http::Request from(const std::string& peer, const std::string& forwarded = "") {
  http::Request r;
  r.remote_addr = peer;
  if (!forwarded.empty()) r.headers.push_back({"x-forwarded-for", forwarded});
  return r;
}

}  // namespace placard::test
