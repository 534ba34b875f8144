// The constant hash an unknown email's password is verified against (no hash at worker start).
#include "lib/crypto/dummy_password_hash.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "lib/crypto/password_hash.h"

namespace {

using placard::crypto::dummy_password_hash;
using placard::crypto::hash_password;
using placard::crypto::password_hash_outdated;
using placard::crypto::verify_password;

double seconds_to_verify(std::string_view password, std::string_view stored) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(verify_password(password, stored));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(DummyPasswordHash, HasTodaysParameters) {
  // Raised parameters for new hashes would make an unknown email cheaper than a wrong password.
  EXPECT_FALSE(password_hash_outdated(dummy_password_hash()));
  EXPECT_EQ(dummy_password_hash().substr(0, 14), "scrypt$17$8$1$");
}

TEST(DummyPasswordHash, CostsWhatAWrongPasswordCosts) {
  // A malformed constant would be refused before any scrypt work: fast, so unknown emails would
  // answer sooner than wrong passwords. Both run the full hash; allow for a loaded machine.
  const std::string real = hash_password("the right password, long enough");
  const double wrong = seconds_to_verify("a wrong password", real);
  const double unknown = seconds_to_verify("a wrong password", dummy_password_hash());
  EXPECT_GT(unknown, wrong / 4) << "unknown " << unknown << " s, wrong " << wrong << " s";
  EXPECT_GT(unknown, 0.01);
}

}  // namespace
