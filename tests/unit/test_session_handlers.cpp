// The admin sign-in and sign-out handlers (lib/admin/session_handlers.cpp) over an in-memory
// account store: only an approved account gets a session; a pending or revoked one is refused
// with 403 account_not_approved once its password is right, and nothing is written for it.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>

#include "lib/crypto/base64.h"
#include "lib/crypto/password_hash.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "tests/unit/admin_fakes.h"

namespace {

using placard::http::ApiError;
using placard::testing::AccountsAdmin;

constexpr std::string_view kPassword = "correct horse 1";

// A stored hash of kPassword with scrypt's smallest accepted cost (N=2^10), in the stored form
// verify_password reads: the sign-in path is what these tests are about, not scrypt's cost.
std::string password_hash() {
  const std::string salt(16, 's');
  std::string out(32, '\0');
  const int ok = EVP_PBE_scrypt(
      kPassword.data(), kPassword.size(), reinterpret_cast<const unsigned char*>(salt.data()),
      salt.size(), 1U << 10, 8, 1, 0, reinterpret_cast<unsigned char*>(out.data()), out.size());
  EXPECT_EQ(ok, 1);
  return "scrypt$10$8$1$" + placard::crypto::base64url_encode(salt) + "$" +
         placard::crypto::base64url_encode(out);
}

std::string sign_in_body(const std::string& email, const std::string& password) {
  return R"({"email":")" + email + R"(","password":")" + password + R"("})";
}

// "<status>" of the answer, or "<status> <code>" of the refusal.
std::string sign_in(AccountsAdmin& admin, const std::string& email, const std::string& password) {
  try {
    return std::to_string(admin.call("POST", "/session", "", sign_in_body(email, password)).status);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
}

TEST(SignIn, AnApprovedAccountGetsASessionCookie) {
  AccountsAdmin admin;
  const auto id = admin.accounts.add("ok@example.test", "approved", password_hash());
  const auto r =
      admin.call("POST", "/session", "", sign_in_body("ok@example.test", std::string(kPassword)));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Set-Cookie").rfind("placard_session=", 0), 0U);
  EXPECT_EQ(admin.accounts.sessions_of(id), 1U);
  EXPECT_EQ(admin.accounts.sign_ins, std::vector<std::uint64_t>{id});
  // N=2^10 is below today's cost: hashed again at this sign-in.
  EXPECT_FALSE(
      placard::crypto::password_hash_outdated(admin.accounts.accounts.at(id).password_hash));
  ASSERT_EQ(admin.tx.audits.size(), 1U);
  EXPECT_EQ(admin.tx.audits[0].action, "session.sign_in");
}

TEST(SignIn, PendingAndRevokedAccountsAreRefusedAndGetNoSession) {
  for (const std::string status : {"pending", "revoked"}) {
    AccountsAdmin admin;
    const auto id = admin.accounts.add("x@example.test", status, password_hash());
    EXPECT_EQ(sign_in(admin, "x@example.test", std::string(kPassword)), "403 account_not_approved")
        << status;
    EXPECT_TRUE(admin.accounts.sessions.empty()) << status;
    EXPECT_TRUE(admin.accounts.sign_ins.empty()) << status;
    EXPECT_TRUE(admin.tx.audits.empty()) << status;
    // The wrong password still answers as for anyone: the status is told only to the owner.
    EXPECT_EQ(sign_in(admin, "x@example.test", "wrong password"), "401 invalid_credentials");
    EXPECT_EQ(admin.accounts.failures, std::vector<std::uint64_t>{id});
  }
}

TEST(SignOut, DeletesThisSessionOnly) {
  AccountsAdmin admin;
  const auto id = admin.accounts.add("ok@example.test", "approved");
  const placard::testing::SessionToken mine('m');
  const placard::testing::SessionToken other('o');
  admin.accounts.add_session(placard::crypto::sha256(mine.raw), id);
  admin.accounts.add_session(placard::crypto::sha256(other.raw), id);
  EXPECT_EQ(admin.call("DELETE", "/session", mine.cookie()).status, 204);
  EXPECT_EQ(admin.accounts.sessions.count(placard::crypto::sha256(mine.raw)), 0U);
  EXPECT_EQ(admin.accounts.sessions_of(id), 1U);
}

}  // namespace
