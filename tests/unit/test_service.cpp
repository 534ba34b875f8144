// api::Service, the glue around every handler: the public origin rule, preflights, 405 with
// Allow, the mapping of exceptions to the contract's errors, no-store on admin answers and the
// request id. Small handlers on a Router; no server, no database.
#include "lib/api/service.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lib/catalog/snapshot_holder.h"
#include "lib/crypto/base64.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/http/deferred.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/logger.h"
#include "tests/unit/frontage_fixture.h"

namespace {

namespace fs = std::filesystem;
using placard::api::Service;
using placard::api::SharedServices;
using placard::catalog::Snapshot;
using placard::catalog::SnapshotHolder;
using placard::http::Request;
using placard::http::Response;
using placard::http::Router;

// A new, empty file name for this test's log.
std::string fresh_log_path() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto path =
      fs::temp_directory_path() /
      ("placard-unit-service-" + std::to_string(::getpid()) + "-" + info->name() + ".log");
  fs::remove(path);
  return path.string();
}

// A Service over a router of small handlers, a snapshot whose settings a test sets, and a log
// file the test can read.
class ServiceTest : public ::testing::Test {
 protected:
  ServiceTest()
      : log_path_(fresh_log_path()),
        log_(std::make_unique<placard::util::Logger>(log_path_)),
        keys_(placard::tokens::KeyRing::parse(
            "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1")) {}
  ~ServiceTest() override {
    log_.reset();
    fs::remove(log_path_);
  }

  void set_origins(std::vector<std::string> origins) {
    auto s = std::make_shared<Snapshot>();
    s->settings.allowed_client_origins = std::move(origins);
    holder_.set(std::move(s));
  }

  Router router() {
    Router r;
    r.add("GET", "/api/v1/config", [](Request&) { return Response::json(200, R"({"ok":true})"); });
    r.add("POST", "/api/v1/offers/query",
          [](Request&) { return Response::json(200, R"({"offers":[]})"); });
    r.add("GET", "/api/v1/down",
          [](Request&) -> Response { throw placard::db::DatabaseUnavailable("socket gone"); });
    r.add("GET", "/api/v1/bug", [](Request&) -> Response {
      throw std::runtime_error("secret detail: table foo is broken");
    });
    r.add("GET", "/api/v1/refused", [](Request&) -> Response {
      throw placard::http::ApiError{422, "country_not_selected", "No", "country"};
    });
    r.add("POST", "/admin/api/v1/things",
          [](Request&) -> Response { throw placard::db::DuplicateKey("Duplicate entry 'x'"); });
    r.add("DELETE", "/admin/api/v1/things/:id", [](Request&) -> Response {
      throw placard::db::ForeignKeyViolation("a foreign key constraint fails");
    });
    r.add("GET", "/admin/api/v1/session",
          [](Request&) { return Response::json(200, R"({"account":{}})"); });
    // Answered later, by whoever completes later_ (as the event writer completes an impression).
    r.add("POST", "/api/v1/events/impression", [this](Request&) {
      later_ = std::make_shared<placard::http::Deferred>();
      return placard::http::Deferred::now_or_later(later_);
    });
    r.add("GET", "/r/click/:offerId", [](Request&) {
      auto resp = Response::empty(302);
      resp.set_header("Location", "https://ad.example/");
      return resp;
    });
    return r;
  }

  Response handle(const std::string& method, const std::string& path,
                  const std::string& origin = {}, bool https = false) {
    Request req;
    req.method = method;
    req.path = path;
    req.https = https;
    req.request_id = "req-" + std::to_string(++counter_);
    if (!origin.empty()) req.headers.push_back({"origin", origin});
    Service service(shared_, router());
    return service.handle(req);
  }

  std::string log_text() const {
    std::ifstream in(log_path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  std::string log_path_;
  std::unique_ptr<placard::util::Logger> log_;
  placard::tokens::KeyRing keys_;
  SnapshotHolder holder_;
  SharedServices shared_{holder_, keys_, *log_};
  int counter_ = 0;
  std::shared_ptr<placard::http::Deferred> later_;

  // Completes the deferred answer of the last request with `produce`; what reached the sink.
  Response complete_later(const Response& returned,
                          const placard::http::Deferred::Produce& produce) {
    EXPECT_TRUE(returned.later);
    Response sent;
    bool reached = false;
    returned.later->then([&](const Response& r) {
      sent = r;
      reached = true;
    });
    EXPECT_FALSE(reached) << "sent before it was complete";
    later_->complete(produce);
    EXPECT_TRUE(reached);
    return sent;
  }
};

TEST_F(ServiceTest, NoOriginListMeansNoCorsHeadersAndNoRefusal) {
  set_origins({});
  const auto r = handle("GET", "/api/v1/config", "chrome-extension://abc");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "");
  EXPECT_EQ(r.header("Vary"), "");
}

TEST_F(ServiceTest, ListedOriginIsEchoedWithVary) {
  set_origins({"chrome-extension://abc", "https://site.example"});
  const auto r = handle("GET", "/api/v1/config", "https://site.example");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"ok":true})");
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "https://site.example");
  EXPECT_EQ(r.header("Vary"), "Origin");
}

TEST_F(ServiceTest, UnlistedOriginIsRefusedBeforeTheHandler) {
  set_origins({"chrome-extension://abc"});
  const auto r = handle("GET", "/api/v1/bug", "https://evil.example");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(
      r.body,
      R"({"error":{"code":"origin_not_allowed","message":"This origin may not use the API"}})");
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "");
  EXPECT_EQ(r.header("X-Request-Id"), "req-1");
  EXPECT_EQ(log_text().find("secret detail"), std::string::npos) << "the handler ran";
}

TEST_F(ServiceTest, FirefoxWildcardGrantsAnyMozExtensionOriginAndEchoesIt) {
  set_origins({"chrome-extension://abc", "moz-extension://*"});
  const std::string firefox = "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab";
  auto r = handle("GET", "/api/v1/config", firefox);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), firefox);
  EXPECT_EQ(r.header("Vary"), "Origin");
  r = handle("OPTIONS", "/api/v1/offers/query", firefox);
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), firefox);
  EXPECT_EQ(handle("GET", "/api/v1/config", "chrome-extension://other").status, 403);
  EXPECT_EQ(handle("GET", "/api/v1/config", "https://site.example").status, 403);
  EXPECT_EQ(handle("GET", "/api/v1/config", "moz-extension://abc/x").status, 403);
}

TEST_F(ServiceTest, NoOriginHeaderIsNeverRefused) {
  set_origins({"chrome-extension://abc"});
  EXPECT_EQ(handle("GET", "/api/v1/config").status, 200);
}

TEST_F(ServiceTest, OriginRuleAppliesToApiPathsOnly) {
  set_origins({"chrome-extension://abc"});
  auto r = handle("GET", "/admin/api/v1/session", "https://evil.example");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "");
  r = handle("GET", "/r/click/7", "https://evil.example");
  EXPECT_EQ(r.status, 302);
}

TEST_F(ServiceTest, WithoutASnapshotTheOriginIsNotJudged) {
  const auto r = handle("GET", "/api/v1/config", "https://evil.example");
  EXPECT_EQ(r.status, 200);
}

TEST_F(ServiceTest, PreflightAnswers204WithTheMethodsOfThePath) {
  set_origins({"chrome-extension://abc"});
  auto r = handle("OPTIONS", "/api/v1/config", "chrome-extension://abc");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(r.header("Access-Control-Allow-Methods"), "GET, HEAD, OPTIONS");
  EXPECT_EQ(r.header("Allow"), "GET, HEAD, OPTIONS");
  EXPECT_EQ(r.header("Access-Control-Allow-Headers"), "Content-Type");
  EXPECT_EQ(r.header("Access-Control-Max-Age"), "600");
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "chrome-extension://abc");
  r = handle("OPTIONS", "/api/v1/offers/query");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.header("Access-Control-Allow-Methods"), "POST, OPTIONS");
}

TEST_F(ServiceTest, PreflightOfAnUnknownPathIs404) {
  const auto r = handle("OPTIONS", "/api/v1/nothing");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find(R"("code":"not_found")"), std::string::npos);
}

TEST_F(ServiceTest, PreflightIsRefusedForAnUnlistedOrigin) {
  set_origins({"chrome-extension://abc"});
  EXPECT_EQ(handle("OPTIONS", "/api/v1/config", "https://evil.example").status, 403);
}

TEST_F(ServiceTest, WrongMethodIs405WithAllow) {
  auto r = handle("DELETE", "/api/v1/config");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.body.find(R"("code":"method_not_allowed")"), std::string::npos) << r.body;
  EXPECT_EQ(r.header("Allow"), "GET, HEAD, OPTIONS");
  // Admin paths have no preflight: OPTIONS is not offered there.
  r = handle("PUT", "/admin/api/v1/session");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("Allow"), "GET, HEAD");
}

TEST_F(ServiceTest, LostDatabaseIs503WithRetryAfter) {
  const auto r = handle("GET", "/api/v1/down");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.header("Retry-After"), "5");
  EXPECT_NE(r.body.find(R"("code":"service_unavailable")"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("socket gone"), std::string::npos);
  EXPECT_NE(log_text().find("socket gone"), std::string::npos);
}

TEST_F(ServiceTest, AnyOtherExceptionIs500WithoutDetailButLoggedWithTheRequestId) {
  const auto r = handle("GET", "/api/v1/bug");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, R"({"error":{"code":"internal_error","message":"Internal error"}})");
  EXPECT_EQ(r.header("X-Request-Id"), "req-1");
  const auto log = log_text();
  EXPECT_NE(log.find("req-1"), std::string::npos) << log;
  EXPECT_NE(log.find("secret detail: table foo is broken"), std::string::npos) << log;
}

TEST_F(ServiceTest, ApiErrorsAreRenderedWithTheirField) {
  const auto r = handle("GET", "/api/v1/refused");
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.body,
            R"({"error":{"code":"country_not_selected","message":"No","field":"country"}})");
}

TEST_F(ServiceTest, DuplicateKeyAndForeignKeyAre409Conflict) {
  auto r = handle("POST", "/admin/api/v1/things");
  EXPECT_EQ(r.status, 409);
  EXPECT_NE(r.body.find(R"("code":"conflict")"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("Duplicate entry"), std::string::npos);
  r = handle("DELETE", "/admin/api/v1/things/3");
  EXPECT_EQ(r.status, 409);
  EXPECT_NE(r.body.find(R"("code":"conflict")"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("foreign key"), std::string::npos);
}

TEST_F(ServiceTest, AdminAnswersAreNoStoreWhateverTheirStatus) {
  EXPECT_EQ(handle("GET", "/admin/api/v1/session").header("Cache-Control"), "no-store");
  EXPECT_EQ(handle("POST", "/admin/api/v1/things").header("Cache-Control"), "no-store");
  EXPECT_EQ(handle("GET", "/admin/api/v1/nothing").header("Cache-Control"), "no-store");
  EXPECT_EQ(handle("GET", "/admin/api/v1/nothing").status, 404);
  // Public answers keep their own caching rules.
  EXPECT_EQ(handle("GET", "/api/v1/config").header("Cache-Control"), "");
}

TEST_F(ServiceTest, EveryAnswerCarriesTheRequestId) {
  EXPECT_EQ(handle("GET", "/api/v1/config").header("X-Request-Id"), "req-1");
  EXPECT_EQ(handle("GET", "/nowhere").header("X-Request-Id"), "req-2");
  EXPECT_EQ(handle("GET", "/api/v1/down").header("X-Request-Id"), "req-3");
  EXPECT_EQ(handle("OPTIONS", "/api/v1/config").header("X-Request-Id"), "req-4");
}

}  // namespace

TEST_F(ServiceTest, HstsOnEveryAnswerOverHttpsAndNeverOverPlainHttp) {
  set_origins({"chrome-extension://abc"});
  for (const char* path : {"/api/v1/config", "/api/v1/down", "/nowhere", "/r/click/1"}) {
    EXPECT_EQ(handle("GET", path, {}, true).header("Strict-Transport-Security"), "max-age=31536000")
        << path;
    EXPECT_EQ(handle("GET", path).header("Strict-Transport-Security"), "") << path;
  }
  // A refused origin over HTTPS is still an HTTPS answer.
  EXPECT_EQ(handle("GET", "/api/v1/config", "https://evil.example", true)
                .header("Strict-Transport-Security"),
            "max-age=31536000");
}

// Issue 23/24: with the worker's catalog given, a request reads one snapshot from start to end:
// a catalog replaced while the handler runs changes neither what the handler reads nor the
// Origin check and Vary of its answer; afterwards the Service holds no snapshot.
TEST_F(ServiceTest, OneSnapshotPerRequestWhenTheCatalogIsGiven) {
  SnapshotHolder catalog;
  auto first = std::make_shared<Snapshot>();
  first->settings.allowed_client_origins = {"chrome-extension://abc"};
  catalog.set(first);
  SnapshotHolder pinned;
  const SharedServices local{pinned, keys_, *log_};
  std::shared_ptr<const Snapshot> seen;
  Router r;
  r.add("GET", "/api/v1/config", [&](Request&) {
    catalog.set(std::make_shared<Snapshot>());  // the refresher swaps in a catalog with no list
    seen = local.snapshots.get();
    return Response::json(200, R"({"ok":true})");
  });
  Service service(local, std::move(r), {}, &catalog);
  Request req;
  req.method = "GET";
  req.path = "/api/v1/config";
  req.request_id = "req-pin";
  req.headers.push_back({"origin", "chrome-extension://abc"});
  const Response resp = service.handle(req);
  EXPECT_EQ(seen, first);
  EXPECT_EQ(resp.status, 200);
  EXPECT_EQ(resp.header("access-control-allow-origin"), "chrome-extension://abc");
  EXPECT_NE(resp.header("vary").find("Origin"), std::string_view::npos);
  EXPECT_EQ(pinned.get(), nullptr);  // let go: an idle handler keeps no replaced catalog alive
  EXPECT_NE(catalog.get(), first);
}

// Without a catalog (in-process tests, CGI), the Service reads shared.snapshots as it is.
TEST_F(ServiceTest, WithoutACatalogTheHolderIsReadDirectly) {
  set_origins({"chrome-extension://abc"});
  const Response resp = handle("GET", "/api/v1/config", "chrome-extension://abc");
  EXPECT_EQ(resp.header("access-control-allow-origin"), "chrome-extension://abc");
  EXPECT_NE(holder_.get(), nullptr);
}

// The base path and a trusted proxy's word on HTTPS (the fixture: frontage_fixture.h).
namespace {

using placard::test::FrontageTest;

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

}  // namespace

TEST_F(ServiceTest, AnAnswerCompletedLaterGetsTheHeadersOfAnImmediateOne) {
  set_origins({"chrome-extension://abc"});
  const auto returned = handle("POST", "/api/v1/events/impression", "chrome-extension://abc");
  const auto r =
      complete_later(returned, [] { return Response::json(200, R"({"status":"recorded"})"); });
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"status":"recorded"})");
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "chrome-extension://abc");
  EXPECT_EQ(r.header("Vary"), "Origin");
  EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(r.header("X-Request-Id"), "req-1");
  // What an immediate answer of the same service gets, header for header.
  const auto now = handle("GET", "/api/v1/config", "chrome-extension://abc");
  for (const char* name : {"Access-Control-Allow-Origin", "Vary", "X-Content-Type-Options"}) {
    EXPECT_EQ(r.header(name), now.header(name)) << name;
  }
}

TEST_F(ServiceTest, AFailureCompletedLaterIsTheContractsErrorWithoutItsDetail) {
  const auto returned = handle("POST", "/api/v1/events/impression");
  const auto r = complete_later(returned, []() -> Response {
    throw placard::db::DatabaseUnavailable("writer lost its socket");
  });
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.header("Retry-After"), "5");
  EXPECT_NE(r.body.find(R"("code":"service_unavailable")"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("writer lost"), std::string::npos);
  EXPECT_EQ(r.header("Cache-Control"), "no-store");
  EXPECT_EQ(r.header("X-Request-Id"), "req-1");
  const auto log = log_text();
  EXPECT_NE(log.find("writer lost its socket"), std::string::npos) << log;
  EXPECT_NE(log.find("req-1"), std::string::npos) << log;
}
