// The admin account handlers (lib/admin/account_handlers.cpp) over an in-memory account store:
// a revocation ends every session of the account at once, in the transaction of its audit row.
#include <gtest/gtest.h>

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
