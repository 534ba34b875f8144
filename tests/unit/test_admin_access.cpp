// The admin API's access helpers: the service's origin, the same-origin rule for writes, the
// session cookie, and the account checks (email, id).
#include "lib/admin/access.h"

#include <gtest/gtest.h>

#include <functional>

#include "lib/admin/account_handlers.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "tests/unit/admin_fakes.h"

namespace {

using placard::admin::parse_id;
using placard::admin::plausible_email;
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

std::string write_check(const Request& r, const Settings& s) {
  try {
    require_same_origin_write(r, s);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
  return "ok";
}

TEST(AdminAccess, ServiceOriginFromTheRequest) {
  const Settings none;
  EXPECT_EQ(service_origin(request(false, "127.0.0.1:8080"), none), "http://127.0.0.1:8080");
  EXPECT_EQ(service_origin(request(true, "ads.example"), none), "https://ads.example");
  EXPECT_EQ(service_origin(request(false, ""), none), "");
}

TEST(AdminAccess, PublicOriginWins) {
  const auto s = with_public_origin("https://ads.example");
  EXPECT_EQ(service_origin(request(false, "127.0.0.1:8080"), s), "https://ads.example");
  EXPECT_EQ(service_origin(request(true, ""), s), "https://ads.example");
}

TEST(AdminAccess, SameOriginWriteWithMarkPasses) {
  const Settings none;
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin"), none),
            "ok");
  EXPECT_EQ(write_check(request(true, "ads.example", "https://ads.example", "admin"), none), "ok");
  // Scheme and host compare without regard to case.
  EXPECT_EQ(write_check(request(true, "ads.example", "HTTPS://ADS.example", "admin"), none), "ok");
  const auto s = with_public_origin("https://ads.example");
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "https://ads.example", "admin"), s), "ok");
}

TEST(AdminAccess, MissingOrWrongOriginIsRefused) {
  const Settings none;
  const std::string refused = "403 csrf_check_failed";
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "", "admin"), none), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://evil.example", "admin"), none),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8081", "admin"), none),
            refused);
  // Scheme matters: a plain-HTTP page may not write to the HTTPS service.
  EXPECT_EQ(write_check(request(true, "ads.example", "http://ads.example", "admin"), none),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "null", "admin"), none), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080/", "admin"), none),
            refused);
  // No Host and no publicOrigin: nothing to compare with, refused.
  EXPECT_EQ(write_check(request(false, "", "http://127.0.0.1:8080", "admin"), none), refused);
  // With publicOrigin, the request's own Host no longer counts.
  const auto s = with_public_origin("https://ads.example");
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin"), s),
            refused);
}

TEST(AdminAccess, MissingOrWrongMarkIsRefused) {
  const Settings none;
  const std::string refused = "403 csrf_check_failed";
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080"), none), refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "Admin"), none),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "admin "), none),
            refused);
  EXPECT_EQ(write_check(request(false, "127.0.0.1:8080", "http://127.0.0.1:8080", "1"), none),
            refused);
}

TEST(AdminAccess, CookieNames) {
  EXPECT_EQ(session_cookie_name(request(false, "h")), "placard_session");
  EXPECT_EQ(session_cookie_name(request(true, "h")), "__Host-placard_session");
  const auto token = placard::crypto::base64url_encode(std::string(32, 't'));
  ASSERT_EQ(token.size(), 43u);

  auto plain = request(false, "h");
  plain.headers.push_back({"cookie", "other=1; placard_session=" + token});
  EXPECT_EQ(placard::admin::session_token_hash(plain),
            placard::crypto::sha256(std::string(32, 't')));
  EXPECT_NE(placard::admin::session_cookie(plain, token)
                .find("placard_session=" + token + "; Path=/; HttpOnly; SameSite=Strict"),
            std::string::npos);
  EXPECT_EQ(placard::admin::session_cookie(plain, token).find("Secure"), std::string::npos);

  // Over HTTPS only the __Host- cookie counts.
  auto https = request(true, "h");
  https.headers.push_back({"cookie", "placard_session=" + token});
  EXPECT_EQ(placard::admin::session_token_hash(https), std::nullopt);
  https.headers.back().value = "__Host-placard_session=" + token;
  EXPECT_TRUE(placard::admin::session_token_hash(https).has_value());
  EXPECT_NE(placard::admin::session_cookie(https, token).find("; Secure"), std::string::npos);
  EXPECT_EQ(placard::admin::cleared_session_cookie(https).rfind("__Host-placard_session=;", 0), 0u);

  // Malformed tokens are no session.
  auto bad = request(false, "h");
  bad.headers.push_back({"cookie", "placard_session=" + token.substr(1)});
  EXPECT_EQ(placard::admin::session_token_hash(bad), std::nullopt);
  bad.headers.back().value = "placard_session=" + std::string(42, 'a') + "!";
  EXPECT_EQ(placard::admin::session_token_hash(bad), std::nullopt);
}

TEST(AdminAccounts, PlausibleEmail) {
  for (const char* good :
       {"a@b", "admin@placard.local", "first.last+tag@sub.example.org", "\xC3\xA4@b.example"}) {
    EXPECT_TRUE(plausible_email(good)) << good;
  }
  for (const char* bad : {"", "a", "@", "a@", "@b", "ab", "a@b@c", "a b@c", "a@b c", "a\t@b",
                          "<a@b>", "\"a\"@b", "a,b@c", "a;b@c", "a\\b@c", "a@b\n", "a\x7f@b"}) {
    EXPECT_FALSE(plausible_email(bad)) << bad;
  }
  EXPECT_TRUE(plausible_email(std::string(64, 'a') + "@" + std::string(189, 'b')));   // 254
  EXPECT_FALSE(plausible_email(std::string(64, 'a') + "@" + std::string(190, 'b')));  // 255
}

TEST(AdminAccounts, ParseId) {
  EXPECT_EQ(parse_id("1"), 1u);
  EXPECT_EQ(parse_id("42"), 42u);
  EXPECT_EQ(parse_id("18446744073709551615"), 18'446'744'073'709'551'615u);
  for (const char* bad : {"", "0", "01", "-1", "+1", "1a", "a1", " 1", "1 ", "1.0",
                          "18446744073709551616", "999999999999999999999", "0x10"}) {
    EXPECT_EQ(parse_id(bad), std::nullopt) << bad;
  }
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
    const auto actor = placard::admin::require_session(with_cookie(cookie), accounts, Settings{});
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
