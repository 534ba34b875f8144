#pragma once

// A GET /api/v1/config from `peer` with the given headers, as the gateway builds it: for the
// tests of the forwarded protocol and of the service behind a proxy.

#include <string>
#include <utility>
#include <vector>

#include "lib/http/request.h"

namespace placard::test {

inline http::Request proxied(std::string peer,
                             const std::vector<std::pair<std::string, std::string>>& headers,
                             bool https = false) {
  http::Request r;
  r.method = "GET";
  r.path = "/api/v1/config";
  r.remote_addr = std::move(peer);
  r.https = https;
  for (const auto& [k, v] : headers) r.headers.push_back({k, v});
  return r;
}

}  // namespace placard::test
