#pragma once

// api::Service with a base path and a trusted proxy in front of two routes, /api/v1/config
// (which notes the path and the HTTPS flag it saw) and /healthz: for the tests of the base path
// (test_service.cpp) and of GET /healthz (test_health.cpp).

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/api/health.h"
#include "lib/api/service.h"
#include "lib/catalog/snapshot_holder.h"
#include "lib/crypto/base64.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/logger.h"
#include "tests/unit/proxied_request.h"

namespace placard::test {

using http::Request;
using http::Response;

class FrontageTest : public ::testing::Test {
 protected:
  FrontageTest()
      : log_(""),
        keys_(placard::tokens::KeyRing::parse(
            "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1")) {
    holder_.set(std::make_shared<placard::catalog::Snapshot>());
  }

  Response handle(const std::string& path, const std::string& base,
                  const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    placard::http::Router r;
    r.add("GET", "/api/v1/config", [this](Request& req) {
      seen_path_ = req.path;
      seen_https_ = req.https;
      return Response::json(200, R"({"ok":true})");
    });
    r.add("GET", "/healthz",
          [this](Request& req) { return placard::api::get_health(req, shared_); });
    placard::api::Service service(shared_, std::move(r),
                                  {base, placard::http::TrustedProxies::parse("127.0.0.1")});
    auto req = proxied("127.0.0.1", headers);
    req.path = path;
    return service.handle(req);
  }

  placard::util::Logger log_;
  placard::tokens::KeyRing keys_;
  placard::catalog::SnapshotHolder holder_;
  bool healthy_ = true;
  placard::api::SharedServices shared_{holder_, keys_, log_, [this] { return healthy_; }};
  std::string seen_path_;
  bool seen_https_ = false;
};

}  // namespace placard::test
