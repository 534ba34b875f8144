// The admin account handlers (lib/admin/account_handlers.cpp) over an in-memory account store:
// a revocation ends every session of the account at once, in the transaction of its audit row.
#include "lib/admin/account_handlers.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "tests/unit/admin_fakes.h"

namespace {

using placard::http::ApiError;
using placard::testing::AccountsAdmin;
using placard::testing::SessionToken;

struct Signed {
  AccountsAdmin admin;
  std::uint64_t actor = admin.accounts.add("admin@example.test", "approved");
  SessionToken token{'a'};
  Signed() { admin.accounts.add_session(placard::crypto::sha256(token.raw), actor); }
  placard::http::Response post(const std::string& path) {
    return admin.call("POST", path, token.cookie());
  }
};

TEST(RevokeAccount, EndsEverySessionOfThatAccountOnly) {
  Signed s;
  const auto target = s.admin.accounts.add("t@example.test", "approved");
  const auto bystander = s.admin.accounts.add("b@example.test", "approved");
  s.admin.accounts.add_session(placard::crypto::sha256(std::string(32, '1')), target);
  s.admin.accounts.add_session(placard::crypto::sha256(std::string(32, '2')), target);
  s.admin.accounts.add_session(placard::crypto::sha256(std::string(32, '3')), bystander);
  const auto r = s.post("/accounts/" + std::to_string(target) + "/revoke");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(s.admin.accounts.accounts.at(target).status, "revoked");
  EXPECT_EQ(s.admin.accounts.sessions_of(target), 0U);
  EXPECT_EQ(s.admin.accounts.sessions_of(bystander), 1U);
  EXPECT_EQ(s.admin.accounts.sessions_of(s.actor), 1U);
  ASSERT_EQ(s.admin.tx.audits.size(), 1U);
  EXPECT_EQ(s.admin.tx.audits[0].action, "account.revoke");
}

TEST(RevokeAccount, AnAlreadyRevokedAccountLosesItsSessionsToo) {
  Signed s;
  const auto target = s.admin.accounts.add("t@example.test", "revoked");
  s.admin.accounts.add_session(placard::crypto::sha256(std::string(32, '1')), target);
  EXPECT_EQ(s.post("/accounts/" + std::to_string(target) + "/revoke").status, 200);
  EXPECT_EQ(s.admin.accounts.sessions_of(target), 0U);
}

TEST(RevokeAccount, RefusedOnItselfAndNothingChanges) {
  Signed s;
  try {
    s.post("/accounts/" + std::to_string(s.actor) + "/revoke");
    FAIL() << "answered";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 409);
  }
  EXPECT_EQ(s.admin.accounts.accounts.at(s.actor).status, "approved");
  EXPECT_EQ(s.admin.accounts.sessions_of(s.actor), 1U);
  EXPECT_TRUE(s.admin.tx.audits.empty());
}

TEST(ApproveAccount, KeepsTheSessions) {
  Signed s;
  const auto target = s.admin.accounts.add("t@example.test", "pending");
  EXPECT_EQ(s.post("/accounts/" + std::to_string(target) + "/approve").status, 200);
  EXPECT_EQ(s.admin.accounts.accounts.at(target).status, "approved");
  EXPECT_EQ(s.admin.accounts.sessions_of(s.actor), 1U);
}

}  // namespace

// The account handlers' checks of an email address and of an id in a path.
namespace {

using placard::admin::parse_id;
using placard::admin::plausible_email;

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
