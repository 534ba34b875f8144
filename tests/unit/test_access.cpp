// The admin API's access helpers: the service's origin, the same-origin rule for writes, the
// session cookie and the session lookup.
#include "lib/admin/access.h"

#include <gtest/gtest.h>

#include <functional>

#include "lib/crypto/base64.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "tests/unit/admin_fakes.h"

namespace {

using placard::admin::AdminConfig;
using placard::admin::require_same_origin_write;
using placard::admin::service_origin;
using placard::admin::session_cookie_name;
using placard::catalog::Settings;
using placard::http::ApiError;
using placard::http::Request;

Request request(bool https, std::string host, std::string origin = {}, std::string mark = {}) {
  Request r;
  r.method = "POST";
  r.path = "/admin/api/v1/accounts/1/approve";
  r.https = https;
  if (!host.empty()) r.headers.push_back({"host", std::move(host)});
  if (!origin.empty()) r.headers.push_back({"origin", std::move(origin)});
  if (!mark.empty()) r.headers.push_back({"x-service-mark", std::move(mark)});
  return r;
}

Settings with_public_origin(std::string origin) {
  Settings s;
  s.public_origin = std::move(origin);
  return s;
}

AdminConfig configured(std::string public_origin, std::string base_path = {}) {
  AdminConfig c;
  c.public_origin = std::move(public_origin);
  c.base_path = std::move(base_path);
  return c;
}

std::string write_check(const Request& r, const AdminConfig& c, const Settings& s = {}) {
  try {
    require_same_origin_write(r, c, s);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
  return "ok";
}

TEST(AdminAccess, ServiceOriginIsConfiguredNeverTheRequestsHost) {
  const Settings none;
  EXPECT_EQ(service_origin(configured(""), none), "");
  EXPECT_EQ(service_origin(configured("https://ads.example"), none), "https://ads.example");
  // The older database setting is the fallback; the config file wins over it.
  EXPECT_EQ(service_origin(configured(""), with_public_origin("https://db.example")),
            "https://db.example");
  EXPECT_EQ(service_origin(configured("https://ads.example"), with_public_origin("https://db.x")),
            "https://ads.example");
}

TEST(AdminAccess, SameOriginWriteWithMarkPasses) {
  const auto c = configured("http://127.0.0.1:8080");
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin"), c),
            "ok");
  // Scheme and host compare without regard to case.
  const auto tls = configured("https://ads.example");
  EXPECT_EQ(write_check(request(true, "ads.example", "HTTPS://ADS.example", "admin"), tls), "ok");
  // Behind a proxy the worker may see another Host: only public_origin counts.
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "https://ads.example", "admin"), tls),
            "ok");
  // The database's publicOrigin, when the config file has none.
  EXPECT_EQ(write_check(request(false, "h", "https://db.example", "admin"), configured(""),
                        with_public_origin("https://db.example")),
            "ok");
}

TEST(AdminAccess, WithoutAConfiguredOriginEveryWriteIsRefused) {
  // DNS rebinding: the page's origin equals the request's own scheme and Host, and that no longer
  // suffices (issue 22 item 7).
  const auto none = configured("");
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin"), none),
            "403 csrf_check_failed");
  EXPECT_EQ(write_check(request(true, "ads.example", "https://ads.example", "admin"), none),
            "403 csrf_check_failed");
  try {
    require_same_origin_write(request(false, "h", "http://h", "admin"), none, {});
    FAIL() << "not refused";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("public_origin"), std::string::npos) << e.what();
  }
}

TEST(AdminAccess, MissingOrWrongOriginIsRefused) {
  const auto c = configured("http://127.0.0.1:8080");
  const std::string refused = "403 csrf_check_failed";
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "", "admin"), c), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://evil.example", "admin"), c),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8081", "admin"), c),
            refused);
  // Scheme matters: a plain-HTTP page may not write to the HTTPS service.
  EXPECT_EQ(write_check(request(true, "ads.example", "http://ads.example", "admin"),
                        configured("https://ads.example")),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "null", "admin"), c), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080/", "admin"), c),
            refused);
}

TEST(AdminAccess, MissingOrWrongMarkIsRefused) {
  const auto c = configured("http://127.0.0.1:8080");
  const std::string refused = "403 csrf_check_failed";
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080"), c), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "Admin"), c),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin "), c),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "1"), c),
            refused);
}

TEST(AdminAccess, CookieSecurityFollowsTheRequestOrThePublicOrigin) {
  const auto plain_cfg = configured("http://h");
  const auto tls_cfg = configured("https://h");
  EXPECT_EQ(session_cookie_name(request(false, "h"), plain_cfg), "placard_session");
  EXPECT_EQ(session_cookie_name(request(true, "h"), plain_cfg), "__Host-placard_session");
  // An https public origin (TLS ends at a proxy in front): Secure even when the worker sees HTTP.
  EXPECT_EQ(session_cookie_name(request(false, "h"), tls_cfg), "__Host-placard_session");
  EXPECT_NE(placard::admin::session_cookie(request(false, "h"), tls_cfg, "t").find("; Secure"),
            std::string::npos);
  // Under a base path __Host- is impossible (it needs Path=/): __Secure- with Path=<base>.
  const auto based = configured("https://h", "/offers");
  EXPECT_EQ(session_cookie_name(request(false, "h"), based), "__Secure-placard_session");
  const auto cookie = placard::admin::session_cookie(request(false, "h"), based, "t");
  EXPECT_EQ(cookie.rfind("__Secure-placard_session=t; Path=/offers; HttpOnly; SameSite=Strict; "
                         "Secure; Max-Age=",
                         0),
            0u)
      << cookie;
  EXPECT_EQ(
      placard::admin::cleared_session_cookie(request(false, "h"), based),
      "__Secure-placard_session=; Path=/offers; HttpOnly; SameSite=Strict; Secure; Max-Age=0");
  // Plain HTTP under a base path: no prefix, still the base as Path.
  EXPECT_EQ(placard::admin::session_cookie(request(false, "h"), configured("http://h", "/a/b"), "t")
                .rfind("placard_session=t; Path=/a/b; HttpOnly; SameSite=Strict; Max-Age=", 0),
            0u);
}

TEST(AdminAccess, CookieNames) {
  const auto c = configured("http://h");
  const auto token = placard::crypto::base64url_encode(std::string(32, 't'));
  ASSERT_EQ(token.size(), 43u);

  auto plain = request(false, "h");
  plain.headers.push_back({"cookie", "other=1; placard_session=" + token});
  EXPECT_EQ(placard::admin::session_token_hash(plain, c),
            placard::crypto::sha256(std::string(32, 't')));
  EXPECT_NE(placard::admin::session_cookie(plain, c, token)
                .find("placard_session=" + token + "; Path=/; HttpOnly; SameSite=Strict"),
            std::string::npos);
  EXPECT_EQ(placard::admin::session_cookie(plain, c, token).find("Secure"), std::string::npos);

  // Over HTTPS only the __Host- cookie counts.
  auto https = request(true, "h");
  https.headers.push_back({"cookie", "placard_session=" + token});
  EXPECT_EQ(placard::admin::session_token_hash(https, c), std::nullopt);
  https.headers.back().value = "__Host-placard_session=" + token;
  EXPECT_TRUE(placard::admin::session_token_hash(https, c).has_value());
  EXPECT_NE(placard::admin::session_cookie(https, c, token).find("; Secure"), std::string::npos);
  EXPECT_EQ(placard::admin::cleared_session_cookie(https, c).rfind("__Host-placard_session=;", 0),
            0u);

  // Malformed tokens are no session.
  auto bad = request(false, "h");
  bad.headers.push_back({"cookie", "placard_session=" + token.substr(1)});
  EXPECT_EQ(placard::admin::session_token_hash(bad, c), std::nullopt);
  bad.headers.back().value = "placard_session=" + std::string(42, 'a') + "!";
  EXPECT_EQ(placard::admin::session_token_hash(bad, c), std::nullopt);
}

}  // namespace

// ---- require_session: the session lookup's status check (issue 27) ---------------------------

namespace {

using placard::testing::InMemoryAccounts;
using placard::testing::SessionToken;

Request with_cookie(const std::string& cookie) {
  auto r = request(false, "admin.test");
  r.method = "GET";
  r.headers.push_back({"cookie", cookie});
  return r;
}

std::string session_check(InMemoryAccounts& accounts, const std::string& cookie) {
  try {
    const placard::admin::AdminConfig config{};
    const auto actor =
        placard::admin::require_session(with_cookie(cookie), config, accounts, Settings{});
    return "account " + std::to_string(actor.account.id);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
}

TEST(RequireSession, ALiveSessionOfAnApprovedAccountIsSignedIn) {
  InMemoryAccounts accounts;
  const auto id = accounts.add("a@b", "approved");
  const SessionToken token('a');
  accounts.add_session(placard::crypto::sha256(token.raw), id);
  EXPECT_EQ(session_check(accounts, token.cookie()), "account " + std::to_string(id));
  EXPECT_EQ(accounts.sessions_of(id), 1U);
  EXPECT_EQ(session_check(accounts, SessionToken('b').cookie()), "401 not_signed_in");
  EXPECT_EQ(session_check(accounts, "other=1"), "401 not_signed_in");
}

// The account's status changed (revoked or back to pending) without its sessions being deleted,
// as when a sign-in read the status just before a revocation: the next request is refused and
// the session is gone.
TEST(RequireSession, ASessionOfAnAccountNoLongerApprovedEnds) {
  for (const std::string status : {"revoked", "pending"}) {
    InMemoryAccounts accounts;
    const auto id = accounts.add("a@b", "approved");
    const SessionToken token('a');
    accounts.add_session(placard::crypto::sha256(token.raw), id);
    ASSERT_EQ(session_check(accounts, token.cookie()), "account " + std::to_string(id));
    accounts.accounts.at(id).status = status;
    EXPECT_EQ(session_check(accounts, token.cookie()), "401 not_signed_in") << status;
    EXPECT_EQ(accounts.sessions_of(id), 0U) << status;
    // Approved again: the old session does not come back.
    accounts.accounts.at(id).status = "approved";
    EXPECT_EQ(session_check(accounts, token.cookie()), "401 not_signed_in") << status;
  }
}

TEST(RequireSession, OnlyTheRefusedSessionIsDeleted) {
  InMemoryAccounts accounts;
  const auto revoked = accounts.add("r@b", "revoked");
  const auto other = accounts.add("o@b", "approved");
  const SessionToken mine('r');
  const SessionToken theirs('o');
  accounts.add_session(placard::crypto::sha256(mine.raw), revoked);
  accounts.add_session(placard::crypto::sha256(theirs.raw), other);
  EXPECT_EQ(session_check(accounts, mine.cookie()), "401 not_signed_in");
  EXPECT_EQ(session_check(accounts, theirs.cookie()), "account " + std::to_string(other));
  EXPECT_EQ(accounts.sessions.size(), 1U);
}

}  // namespace
