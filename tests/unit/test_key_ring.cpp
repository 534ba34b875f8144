#include "lib/tokens/key_ring.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "tests/unit/key_rings.h"

namespace {

using placard::crypto::base64url_encode;
using placard::tokens::KeyRing;

using placard::test::key_bytes;
using placard::test::key_text;
using placard::test::ring;

const KeyRing& main_ring() {
  static const KeyRing keys = ring("k1:" + key_text('a'), "k1");
  return keys;
}

std::array<unsigned char, 32> reference_hmac(const std::string& key, const std::string& data) {
  std::array<unsigned char, 32> out{};
  std::size_t len = 0;
  EXPECT_NE(EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(),
                      reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
                      out.size(), &len),
            nullptr);
  EXPECT_EQ(len, 32U);
  return out;
}

std::string hex(const std::array<unsigned char, 32>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0f]);
  }
  return out;
}

// RFC 4231 test cases 6 and 7 (131-byte key, hashed first because it exceeds the block size).
TEST(TokenKeyRing, MacMatchesRfc4231) {
  const KeyRing keys = ring("rfc:" + key_text('\xaa', 131), "rfc");
  EXPECT_EQ(hex(keys.mac("rfc", "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(hex(keys.mac("rfc",
                         "This is a test using a larger than block-size key and a larger than "
                         "block-size data. The key needs to be hashed before being used by the "
                         "HMAC algorithm.")),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST(TokenKeyRing, MacMatchesOpenSslHmacForKeysAroundTheBlockSize) {
  for (const std::size_t key_size : {32U, 63U, 64U, 65U, 100U, 200U}) {
    const std::string key = placard::crypto::random_bytes(key_size);
    const KeyRing keys = ring("k:" + base64url_encode(key), "k");
    for (const std::size_t data_size : {0U, 1U, 55U, 64U, 118U, 1000U}) {
      const std::string data = placard::crypto::random_bytes(data_size);
      EXPECT_EQ(keys.mac("k", data), reference_hmac(key, data)) << key_size << "/" << data_size;
    }
  }
}

TEST(TokenKeyRing, ParseAcceptsSeveralKeysWithSpaces) {
  const KeyRing keys =
      ring("  k1:" + key_text('a') + " ,\tk_2-B:" + key_text('b', 48) + " ", "k_2-B");
  EXPECT_TRUE(keys.has("k1"));
  EXPECT_TRUE(keys.has("k_2-B"));
  EXPECT_FALSE(keys.has("k2"));
  EXPECT_FALSE(keys.has(""));
  EXPECT_EQ(keys.active_kid(), "k_2-B");
  EXPECT_EQ(keys.mac("k1", "x"), reference_hmac(key_bytes('a'), "x"));
  EXPECT_EQ(keys.mac("k_2-B", "x"), reference_hmac(key_bytes('b', 48), "x"));
}

TEST(TokenKeyRing, MacForUnknownKidThrowsOutOfRange) {
  EXPECT_THROW((void)main_ring().mac("nope", "x"), std::out_of_range);
}

std::string base64_pad(std::string s) {
  while (s.size() % 4 != 0) s.push_back('=');
  return s;
}

struct BadSpec {
  std::string spec;
  std::string active;
  std::string secret;  // text that must not appear in the message
};

TEST(TokenKeyRing, ParseErrorsAreInvalidArgumentWithoutKeyMaterial) {
  const std::string good = key_text('s');
  const std::string good2 = base64url_encode("another-secret-key-of-enough-bytes-!!");
  const std::string short_key = base64url_encode(std::string(31, 'q'));
  const std::string padded = base64_pad(good);
  const std::vector<BadSpec> cases = {
      {"", "k1", ""},
      {"   ", "k1", ""},
      {"k1", "k1", ""},
      {good, "k1", good},                    // no kid at all
      {"k1:", "k1", ""},                     // empty key
      {"k1:" + short_key, "k1", short_key},  // 31 bytes
      {"k!:" + good, "k!", good},            // bad kid character
      {"k 1:" + good, "k 1", good},
      {":" + good, "", good},  // empty kid
      {std::string(17, 'k') + ":" + good, std::string(17, 'k'), good},
      {"k1:" + good + ",k1:" + good2, "k1", good2},  // duplicate kid
      {"k1:" + good, "k2", good},                    // active not in list
      {"k1:" + good, "", good},
      {"k1:" + good, "k1 ", good},
      {"k1:" + good + ",", "k1", good},  // trailing comma
      {"k1:" + good + ",,k2:" + good2, "k1", good2},
      {"k1:" + padded, "k1", padded},  // padding is not base64url
      {"k1:" + good.substr(0, 20) + "+" + good.substr(21), "k1", good.substr(21)},
      {"k1:" + good.substr(0, 20) + " " + good.substr(21), "k1", good.substr(21)},
      {"k1:" + good + "AA", "k1", good},  // impossible length (45 chars)
  };
  for (const auto& c : cases) {
    try {
      (void)KeyRing::parse(c.spec, c.active);
      ADD_FAILURE() << "accepted: " << c.spec << " / " << c.active;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_FALSE(message.empty());
      // No 8-character window of the secret text appears in the message.
      for (std::size_t i = 0; i + 8 <= c.secret.size(); ++i) {
        EXPECT_EQ(message.find(c.secret.substr(i, 8)), std::string::npos)
            << "message leaks key text: " << message;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "wrong exception type for " << c.spec << ": " << e.what();
    }
  }
}

}  // namespace
