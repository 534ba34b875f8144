// Where the service sits: the config keys public_origin and base_path (validation), the base
// path stripped by api::Service (nothing answers outside it), HTTPS reported by trusted proxies
// only, and GET /healthz (the schema version the worker needs: test_schema_version.cpp).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "lib/api/health.h"
#include "lib/api/service.h"
#include "lib/catalog/refresher.h"
#include "lib/catalog/snapshot_holder.h"
#include "lib/config/config_file.h"
#include "lib/config/public_address.h"
#include "lib/config/server_config.h"
#include "lib/crypto/base64.h"
#include "lib/db/migrations.h"
#include "lib/db/schema_version.h"
#include "lib/http/forwarded_proto.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/logger.h"
#include "lib/util/service_version.h"

namespace {

using placard::config::check_base_path;
using placard::config::check_public_origin;
using placard::config::normalize_public_origin;
using placard::http::Request;
using placard::http::Response;

TEST(PublicOrigin, OnlySchemeHostAndPort) {
  for (const char* good :
       {"https://example.com", "http://127.0.0.1:8080", "https://[::1]:8443",
        "https://a-b.example.co.uk", "HTTPS://Example.COM", "http://localhost"}) {
    EXPECT_EQ(check_public_origin(good), "") << good;
  }
  for (const char* bad : {"",
                          "example.com",
                          "ftp://example.com",
                          "https://",
                          "https://example.com/",
                          "https://example.com/offers",
                          "https://user@example.com",
                          "https://example.com?x",
                          "https://example.com#f",
                          "https://example.com:",
                          "https://example.com:0",
                          "https://example.com:65536",
                          "https://example.com:80x",
                          "https://-a.example",
                          "https://a..example",
                          "https://[::1",
                          "https://[zz]",
                          "https://exa mple.com",
                          "https://example.com\\x",
                          "https://*.example.com"}) {
    EXPECT_NE(check_public_origin(bad), "") << bad;
  }
}

TEST(PublicOrigin, NormalisedAsBrowsersSendIt) {
  EXPECT_EQ(normalize_public_origin("HTTPS://Example.COM:443"), "https://example.com");
  EXPECT_EQ(normalize_public_origin("http://Example.com:80"), "http://example.com");
  EXPECT_EQ(normalize_public_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  EXPECT_EQ(normalize_public_origin("https://example.com:80"), "https://example.com:80");
}

TEST(BasePath, Validated) {
  for (const char* good : {"", "/offers", "/tools/offers", "/a_b-c.d~e", "/x"}) {
    EXPECT_EQ(check_base_path(good), "") << good;
  }
  for (const char* bad : {"/", "offers", "/offers/", "//offers", "/a//b", "/a/./b", "/..", "/a b",
                          "/a%20b", "/a?b", "/ä", "/a;b", "/a\"b"}) {
    EXPECT_NE(check_base_path(bad), "") << bad;
  }
  EXPECT_NE(check_base_path("/" + std::string(200, 'a')), "");
}

TEST(BasePath, Stripped) {
  std::string_view rest;
  ASSERT_TRUE(placard::config::strip_base_path("", "/api/v1/config", rest));
  EXPECT_EQ(rest, "/api/v1/config");
  ASSERT_TRUE(placard::config::strip_base_path("/offers", "/offers/api/v1/config", rest));
  EXPECT_EQ(rest, "/api/v1/config");
  ASSERT_TRUE(placard::config::strip_base_path("/offers", "/offers", rest));
  EXPECT_EQ(rest, "");
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/api/v1/config", rest));
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/offersX/api/v1/config", rest));
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/offer", rest));
}

std::map<std::string, std::string> minimal(std::string key, std::string value) {
  return {{"listen", "unix:/tmp/x.sock"}, {std::move(key), std::move(value)}};
}

TEST(ServerConfigKeys, PublicOriginAndBasePath) {
  using placard::config::server_config_from;
  const auto c = server_config_from(minimal("public_origin", "HTTPS://Ads.Example:443"));
  EXPECT_EQ(c.public_origin, "https://ads.example");
  EXPECT_EQ(server_config_from(minimal("public_origin", "")).public_origin, "");
  EXPECT_THROW(server_config_from(minimal("public_origin", "https://ads.example/")),
               placard::config::ConfigError);
  EXPECT_EQ(server_config_from(minimal("base_path", "/offers")).base_path, "/offers");
  EXPECT_THROW(server_config_from(minimal("base_path", "/offers/")), placard::config::ConfigError);
  // Both survive the round trip through the file `placardctl init` writes.
  auto both = server_config_from(minimal("public_origin", "https://ads.example"));
  both.base_path = "/offers";
  const auto again = server_config_from(
      placard::config::parse_config_text(placard::config::render_server_config(both)));
  EXPECT_EQ(again.public_origin, "https://ads.example");
  EXPECT_EQ(again.base_path, "/offers");
}

Request from(std::string peer, const std::vector<std::pair<std::string, std::string>>& headers,
             bool https = false) {
  Request r;
  r.method = "GET";
  r.path = "/api/v1/config";
  r.remote_addr = std::move(peer);
  r.https = https;
  for (const auto& [k, v] : headers) r.headers.push_back({k, v});
  return r;
}

TEST(ForwardedProto, OnlyFromTrustedProxies) {
  const auto trusted = placard::http::TrustedProxies::parse("127.0.0.1, 10.0.0.0/8");
  using placard::http::reached_over_https;
  EXPECT_TRUE(reached_over_https(from("192.0.2.1", {}, true), trusted));
  EXPECT_TRUE(reached_over_https(from("127.0.0.1", {{"x-forwarded-proto", "https"}}), trusted));
  EXPECT_TRUE(
      reached_over_https(from("10.1.2.3", {{"x-forwarded-proto", "http, HTTPS"}}), trusted));
  EXPECT_FALSE(
      reached_over_https(from("10.1.2.3", {{"x-forwarded-proto", "https, http"}}), trusted));
  EXPECT_TRUE(reached_over_https(
      from("127.0.0.1", {{"forwarded", "for=192.0.2.9;proto=http, for=1.2.3.4;Proto=\"https\""}}),
      trusted));
  // Forwarded wins over X-Forwarded-Proto when both are there.
  EXPECT_FALSE(reached_over_https(
      from("127.0.0.1", {{"forwarded", "proto=http"}, {"x-forwarded-proto", "https"}}), trusted));
  // An untrusted peer's headers count for nothing.
  EXPECT_FALSE(reached_over_https(from("192.0.2.1", {{"x-forwarded-proto", "https"}}), trusted));
  EXPECT_FALSE(reached_over_https(from("192.0.2.1", {{"forwarded", "proto=https"}}), trusted));
  EXPECT_FALSE(reached_over_https(from("127.0.0.1", {{"x-forwarded-proto", "https"}}),
                                  placard::http::TrustedProxies{}));
  EXPECT_EQ(placard::http::forwarded_proto("for=x;proto"), "");
}

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
    auto req = from("127.0.0.1", headers);
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

TEST_F(FrontageTest, BasePathIsStrippedAndNothingAnswersOutsideIt) {
  EXPECT_EQ(handle("/offers/api/v1/config", "/offers").status, 200);
  EXPECT_EQ(seen_path_, "/api/v1/config");
  for (const char* outside :
       {"/api/v1/config", "/offersapi/v1/config", "/offers", "/offers/", "/other/api/v1/config"}) {
    const auto r = handle(outside, "/offers");
    EXPECT_EQ(r.status, 404) << outside;
    EXPECT_NE(r.body.find("not_found"), std::string::npos) << outside;
    EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  }
  // At the root, as before.
  EXPECT_EQ(handle("/api/v1/config", "").status, 200);
  EXPECT_EQ(handle("/offers/api/v1/config", "").status, 404);
}

TEST_F(FrontageTest, TrustedProxySaysHttps) {
  EXPECT_EQ(handle("/api/v1/config", "", {{"x-forwarded-proto", "https"}}).status, 200);
  EXPECT_TRUE(seen_https_);
  EXPECT_EQ(handle("/api/v1/config", "").status, 200);
  EXPECT_FALSE(seen_https_);
}

TEST_F(FrontageTest, Healthz) {
  auto r = handle("/offers/healthz", "/offers");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, std::string(R"({"status":"ok","version":")") +
                        placard::util::service_version() + "\"}");
  EXPECT_EQ(r.header("Cache-Control"), "no-store");
  healthy_ = false;
  r = handle("/offers/healthz", "/offers");
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("service_unavailable"), std::string::npos);
}

TEST(Refresher, FreshOnlyAfterARecentSuccessfulPoll) {
  placard::catalog::SnapshotHolder holder;
  bool database_up = true;
  placard::catalog::Refresher refresher(
      holder,
      [&]() -> std::uint64_t {
        if (!database_up) throw std::runtime_error("down");
        return 1;
      },
      [&] {
        if (!database_up) throw std::runtime_error("down");
        auto s = std::make_shared<placard::catalog::Snapshot>();
        s->version = 1;
        return std::shared_ptr<const placard::catalog::Snapshot>(s);
      },
      [](const std::string&) {}, std::chrono::milliseconds(10));
  const auto age = std::chrono::milliseconds(5000);
  const auto now = std::chrono::steady_clock::now();
  EXPECT_FALSE(refresher.fresh(now, age));  // nothing polled yet
  refresher.poll_once();
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
  database_up = false;
  refresher.poll_once();  // fails: the snapshot is kept, the last success ages
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
  EXPECT_FALSE(refresher.fresh(std::chrono::steady_clock::now() + std::chrono::seconds(6), age));
  database_up = true;
  refresher.poll_once();
  EXPECT_TRUE(refresher.fresh(std::chrono::steady_clock::now(), age));
}

}  // namespace
