#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "lib/crypto/aes_gcm.h"
#include "lib/crypto/base64.h"

namespace {

using placard::crypto::CredentialKeys;
using placard::crypto::DecryptError;
using placard::crypto::gcm_decrypt;
using placard::crypto::gcm_encrypt;
using placard::crypto::Sealed;

constexpr std::string_view kKeyA = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";  // 32 bytes
constexpr std::string_view kKeyB = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

std::string spec(const std::string& kid, std::string_view key) {
  return kid + ":" + placard::crypto::base64url_encode(key);
}

// NIST SP 800-38D / McGrew-Viega test case 16 (AES-256, 96-bit IV, with AAD).
std::string unhex(const std::string& h) {
  std::string out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

TEST(AesGcm, KnownAnswerVector) {
  const auto key = unhex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308");
  const auto iv = unhex("cafebabefacedbaddecaf888");
  const auto pt = unhex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6"
      "b525b16aedf5aa0de657ba637b39");
  const auto aad = unhex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
  std::string tag;
  const auto ct = gcm_encrypt(key, iv, pt, aad, tag);
  EXPECT_EQ(ct, unhex("522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590d"
                      "bb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"));
  EXPECT_EQ(tag, unhex("76fc6ece0f4e1768cddf8853bb2d551b"));
  EXPECT_EQ(gcm_decrypt(key, iv, ct, tag, aad), pt);
}

TEST(AesGcm, RoundTripAndFreshIvEachTime) {
  const auto keys = CredentialKeys::parse(spec("k1", kKeyA));
  const std::string secret = R"({"clientId":"abc","clientSecret":"s3cret","websiteId":"42"})";
  const Sealed a = keys.seal(secret, "admitad");
  const Sealed b = keys.seal(secret, "admitad");
  EXPECT_EQ(a.key_id, "k1");
  EXPECT_EQ(a.iv.size(), 12u);
  EXPECT_EQ(a.tag.size(), 16u);
  EXPECT_EQ(a.ciphertext.size(), secret.size());
  EXPECT_NE(a.iv, b.iv);
  EXPECT_NE(a.ciphertext, b.ciphertext);
  EXPECT_EQ(a.ciphertext.find("s3cret"), std::string::npos);
  EXPECT_EQ(keys.open(a, "admitad"), secret);
  EXPECT_EQ(keys.open(b, "admitad"), secret);
}

TEST(AesGcm, EmptyPlaintext) {
  const auto keys = CredentialKeys::parse(spec("k1", kKeyA));
  const Sealed s = keys.seal("", "awin");
  EXPECT_TRUE(s.ciphertext.empty());
  EXPECT_EQ(keys.open(s, "awin"), "");
  Sealed t = s;
  t.tag[0] = static_cast<char>(t.tag[0] ^ 1);
  EXPECT_THROW(keys.open(t, "awin"), DecryptError);
}

TEST(AesGcm, TamperingIsRefused) {
  const auto keys = CredentialKeys::parse(spec("k1", kKeyA));
  const Sealed s = keys.seal("the plaintext", "admitad");
  for (std::size_t i = 0; i < s.tag.size(); ++i) {
    Sealed t = s;
    t.tag[i] = static_cast<char>(t.tag[i] ^ 0x01);
    EXPECT_THROW(keys.open(t, "admitad"), DecryptError) << "tag byte " << i;
  }
  for (std::size_t i = 0; i < s.iv.size(); ++i) {
    Sealed t = s;
    t.iv[i] = static_cast<char>(t.iv[i] ^ 0x80);
    EXPECT_THROW(keys.open(t, "admitad"), DecryptError) << "iv byte " << i;
  }
  for (std::size_t i = 0; i < s.ciphertext.size(); ++i) {
    Sealed t = s;
    t.ciphertext[i] = static_cast<char>(t.ciphertext[i] ^ 0x01);
    EXPECT_THROW(keys.open(t, "admitad"), DecryptError) << "ciphertext byte " << i;
  }
  Sealed shorter = s;
  shorter.ciphertext.pop_back();
  EXPECT_THROW(keys.open(shorter, "admitad"), DecryptError);
  Sealed short_tag = s;
  short_tag.tag.resize(12);
  EXPECT_THROW(keys.open(short_tag, "admitad"), DecryptError);
  Sealed short_iv = s;
  short_iv.iv.resize(11);
  EXPECT_THROW(keys.open(short_iv, "admitad"), DecryptError);
  // the row moved to another network: the associated data differs
  EXPECT_THROW(keys.open(s, "awin"), DecryptError);
  EXPECT_THROW(keys.open(s, ""), DecryptError);
  EXPECT_EQ(keys.open(s, "admitad"), "the plaintext");
}

TEST(AesGcm, WrongKeyIsRefused) {
  const auto a = CredentialKeys::parse(spec("k1", kKeyA));
  const auto b = CredentialKeys::parse(spec("k1", kKeyB));
  const Sealed s = a.seal("hunter2-plain", "awin");
  EXPECT_THROW(b.open(s, "awin"), DecryptError);
  const auto other_kid = CredentialKeys::parse(spec("k2", kKeyA));
  EXPECT_THROW(other_kid.open(s, "awin"), DecryptError);  // k1 no longer configured
  try {
    b.open(s, "awin");
  } catch (const DecryptError& e) {
    EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos);
  }
}

TEST(AesGcm, RotationFirstEncryptsNamedDecrypts) {
  const auto old_ring = CredentialKeys::parse(spec("old", kKeyA));
  const Sealed before = old_ring.seal("v1", "admitad");
  const auto ring = CredentialKeys::parse(spec("new", kKeyB) + ", " + spec("old", kKeyA));
  EXPECT_EQ(ring.active_kid(), "new");
  EXPECT_EQ(ring.open(before, "admitad"), "v1");
  const Sealed after = ring.seal("v2", "admitad");
  EXPECT_EQ(after.key_id, "new");
  EXPECT_THROW(old_ring.open(after, "admitad"), DecryptError);
  EXPECT_EQ(ring.open(after, "admitad"), "v2");
}

// Concatenates its parts (a test helper).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const auto p : parts) out.append(p);
  return out;
}

TEST(AesGcm, MalformedSpecsRefusedWithoutKeyMaterial) {
  const std::string good = placard::crypto::base64url_encode(kKeyA);
  const std::string long_key = placard::crypto::base64url_encode(std::string(33, 'A'));
  for (const std::string& bad :
       {std::string(""), std::string("k1"), cat({"k1:", good.substr(0, 40)}), cat({":", good}),
        cat({"k1:", good, "="}), cat({"toolongkeyid_12345:", good}),
        cat({"k1:", good, ",k1:", good}), cat({"k 1:", good}), cat({"k1:", good, ","}),
        cat({"k1:", long_key})}) {
    try {
      CredentialKeys::parse(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).find(good.substr(0, 10)), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(CredentialKeys::parse(cat({" k1:", good, " ,\tk2:", good, " "})));
}

}  // namespace
