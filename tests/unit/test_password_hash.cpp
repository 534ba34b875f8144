#include "lib/crypto/password_hash.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "lib/crypto/base64.h"

namespace {

using placard::crypto::hash_password;
using placard::crypto::verify_password;

// One hash shared by the tests (scrypt is deliberately slow).
const std::string& stored_hash() {
  static const std::string hash = hash_password("correct horse battery staple");
  return hash;
}
constexpr const char* kPassword = "correct horse battery staple";

struct Fields {
  std::string prefix;  // "scrypt$17$8$1$"
  std::string salt;
  std::string hash;
};

Fields split(const std::string& stored) {
  const auto last = stored.rfind('$');
  const auto salt_start = stored.rfind('$', last - 1) + 1;
  return {stored.substr(0, salt_start), stored.substr(salt_start, last - salt_start),
          stored.substr(last + 1)};
}

// Another base64url character (the text may become non-canonical; either way it must not verify).
char other_char(char c) {
  return c == 'A' ? 'B' : 'A';
}

TEST(PasswordHash, HasTheDocumentedFormat) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const Fields f = split(stored_hash());
  EXPECT_EQ(f.prefix, "scrypt$17$8$1$");
  EXPECT_EQ(f.salt.size(), 22U);  // 16 bytes
  EXPECT_EQ(f.hash.size(), 43U);  // 32 bytes
  EXPECT_EQ(f.salt.find_first_not_of(alphabet), std::string::npos) << stored_hash();
  EXPECT_EQ(f.hash.find_first_not_of(alphabet), std::string::npos) << stored_hash();
  EXPECT_EQ(f.prefix.size() + f.salt.size() + 1 + f.hash.size(), stored_hash().size());
}

TEST(PasswordHash, VerifiesTheRightPassword) {
  EXPECT_TRUE(verify_password(kPassword, stored_hash()));
}

TEST(PasswordHash, RejectsWrongPasswords) {
  EXPECT_FALSE(verify_password("correct horse battery stapl", stored_hash()));
  EXPECT_FALSE(verify_password("Correct horse battery staple", stored_hash()));
  EXPECT_FALSE(verify_password("correct horse battery staple ", stored_hash()));
  EXPECT_FALSE(verify_password("", stored_hash()));
}

TEST(PasswordHash, TwoHashesOfOnePasswordDifferAndBothVerify) {
  const std::string again = hash_password(kPassword);
  EXPECT_NE(again, stored_hash());
  EXPECT_NE(split(again).salt, split(stored_hash()).salt);
  EXPECT_TRUE(verify_password(kPassword, again));
}

TEST(PasswordHash, EmptyAndBinaryPasswordsWork) {
  const std::string empty = hash_password("");
  EXPECT_TRUE(verify_password("", empty));
  EXPECT_FALSE(verify_password(" ", empty));
  const std::string binary("a\0b", 3);
  const std::string hashed = hash_password(binary);
  EXPECT_TRUE(verify_password(binary, hashed));
  EXPECT_FALSE(verify_password("a", hashed));  // the NUL byte is part of the password
}

TEST(PasswordHash, TamperedSaltFails) {
  const Fields f = split(stored_hash());
  std::string salt = f.salt;
  salt[0] = other_char(salt[0]);
  EXPECT_FALSE(verify_password(kPassword, f.prefix + salt + "$" + f.hash));
  salt = f.salt;
  salt[10] = other_char(salt[10]);
  EXPECT_FALSE(verify_password(kPassword, f.prefix + salt + "$" + f.hash));
}

TEST(PasswordHash, TamperedHashFails) {
  const Fields f = split(stored_hash());
  for (const std::size_t pos : {std::size_t{0}, std::size_t{20}, f.hash.size() - 1}) {
    std::string hash = f.hash;
    hash[pos] = other_char(hash[pos]);
    EXPECT_FALSE(verify_password(kPassword, f.prefix + f.salt + "$" + hash)) << pos;
  }
}

// The parameters in the string are the ones used: changing any of them changes the result.
TEST(PasswordHash, ParametersAreReadFromTheString) {
  const Fields f = split(stored_hash());
  const std::string tail = "$" + f.salt + "$" + f.hash;
  EXPECT_TRUE(verify_password(kPassword, "scrypt$17$8$1" + tail));
  EXPECT_FALSE(verify_password(kPassword, "scrypt$16$8$1" + tail));
  EXPECT_FALSE(verify_password(kPassword, "scrypt$17$7$1" + tail));
  EXPECT_FALSE(verify_password(kPassword, "scrypt$17$8$2" + tail));
}

// RFC 7914 section 12, third vector: N=16384, r=8, p=1, 64-byte output.
TEST(PasswordHash, VerifiesTheRfc7914KnownAnswer) {
  const std::string expected_hex =
      "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
      "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887";
  std::string expected;
  for (std::size_t i = 0; i < expected_hex.size(); i += 2) {
    expected.push_back(static_cast<char>(std::stoi(expected_hex.substr(i, 2), nullptr, 16)));
  }
  const std::string stored = "scrypt$14$8$1$" +
                             placard::crypto::base64url_encode("SodiumChloride") + "$" +
                             placard::crypto::base64url_encode(expected);
  EXPECT_TRUE(verify_password("pleaseletmein", stored));
  EXPECT_FALSE(verify_password("pleaseletmeim", stored));
}

TEST(PasswordHash, MalformedStringsAreFalseAndDoNotThrow) {
  const Fields f = split(stored_hash());
  const std::string salt_hash = f.salt + "$" + f.hash;
  const std::vector<std::string> bad = {
      "",
      "scrypt",
      "scrypt$",
      "scrypt$15$8$1$",
      "scrypt$15$8$1$" + f.salt,
      "scrypt$15$8$1$" + f.salt + "$",
      "scrypt$15$8$1$$" + f.hash,
      "Scrypt$15$8$1$" + salt_hash,
      "bcrypt$15$8$1$" + salt_hash,
      "$15$8$1$" + salt_hash,
      "scrypt$15$8$" + salt_hash,
      "scrypt$15$8$1$x$" + salt_hash,
      "scrypt$15$8$1$" + salt_hash + "$",
      "scrypt$015$8$1$" + salt_hash,
      "scrypt$+15$8$1$" + salt_hash,
      "scrypt$-15$8$1$" + salt_hash,
      "scrypt$ 15$8$1$" + salt_hash,
      "scrypt$15 $8$1$" + salt_hash,
      "scrypt$0x0f$8$1$" + salt_hash,
      "scrypt$$8$1$" + salt_hash,
      "scrypt$9$8$1$" + salt_hash,
      "scrypt$21$8$1$" + salt_hash,
      "scrypt$99$8$1$" + salt_hash,
      "scrypt$150$8$1$" + salt_hash,
      "scrypt$18446744073709551616$8$1$" + salt_hash,
      "scrypt$15$0$1$" + salt_hash,
      "scrypt$15$17$1$" + salt_hash,
      "scrypt$15$8$0$" + salt_hash,
      "scrypt$15$8$5$" + salt_hash,
      "scrypt$15$8$1$" + f.salt + "==$" + f.hash,
      "scrypt$15$8$1$" + f.salt + "$" + f.hash + "=",
      "scrypt$15$8$1$" + f.salt + "$" + f.hash.substr(0, 42),
      "scrypt$15$8$1$" + f.salt + "$" + f.hash.substr(0, 20),
      "scrypt$15$8$1$" + f.salt.substr(0, 8) + "$" + f.hash,
      "scrypt$15$8$1$+" + f.salt.substr(1) + "$" + f.hash,
      "scrypt$15$8$1$" + f.salt + "$" + f.hash + " ",
      " scrypt$15$8$1$" + salt_hash,
      "scrypt$15$8$1$" + f.salt + "$" + f.hash + "\n",
      std::string("scrypt$15$8$1$\0", 15) + salt_hash,
  };
  for (const auto& s : bad) {
    bool ok = true;
    EXPECT_NO_THROW(ok = verify_password(kPassword, s)) << s;
    EXPECT_FALSE(ok) << s;
  }
}

// Parameters inside the accepted ranges but needing more than 192 MiB fail fast instead of
// allocating gigabytes.
TEST(PasswordHash, ParametersBeyondTheMemoryCapFailFast) {
  const Fields f = split(stored_hash());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(verify_password(kPassword, "scrypt$20$16$4$" + f.salt + "$" + f.hash));
  EXPECT_FALSE(verify_password(kPassword, "scrypt$18$8$1$" + f.salt + "$" + f.hash));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace

namespace {

// scrypt's output is a stream: a stored hash cut short is a prefix of the right one. Verification
// must still refuse it, whatever the length (re-encoded canonically, so only the length differs).
TEST(PasswordHash, TruncatedHashIsRefused) {
  const Fields f = split(stored_hash());
  const auto full = placard::crypto::base64url_decode(f.hash);
  ASSERT_TRUE(full.has_value());
  ASSERT_EQ(full->size(), 32U);
  for (std::size_t keep : {31U, 24U, 16U}) {
    const std::string cut = placard::crypto::base64url_encode(full->substr(0, keep));
    EXPECT_FALSE(verify_password(kPassword, f.prefix + f.salt + "$" + cut)) << keep;
  }
}

}  // namespace

namespace {

// Hashes made with weaker parameters than today's are re-hashed at the next sign-in.
TEST(PasswordHash, OutdatedParametersAreRecognised) {
  using placard::crypto::password_hash_outdated;
  EXPECT_FALSE(password_hash_outdated(stored_hash()));
  const Fields f = split(stored_hash());
  const std::string tail = f.salt + "$" + f.hash;
  EXPECT_TRUE(password_hash_outdated("scrypt$15$8$1$" + tail));
  EXPECT_TRUE(password_hash_outdated("scrypt$17$4$1$" + tail));
  EXPECT_FALSE(password_hash_outdated("scrypt$18$8$1$" + tail));
  EXPECT_TRUE(password_hash_outdated("pbkdf2$600000$" + tail));
  EXPECT_TRUE(password_hash_outdated(""));
}

}  // namespace
