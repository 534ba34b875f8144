#include "lib/crypto/base64.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "lib/crypto/random.h"

namespace {

using placard::crypto::base64_decode;
using placard::crypto::base64_encode;
using placard::crypto::base64url_decode;
using placard::crypto::base64url_decode_into;
using placard::crypto::base64url_decoded_size;
using placard::crypto::base64url_encode;
using placard::crypto::base64url_encode_append;
using placard::crypto::base64url_encoded_size;

constexpr std::string_view kUrlAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// RFC 4648 section 10.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kRfcVectors = {{
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
}};

std::string strip_padding(std::string_view text) {
  std::string s(text);
  while (!s.empty() && s.back() == '=') s.pop_back();
  return s;
}

TEST(Base64, StandardMatchesRfc4648Vectors) {
  for (const auto& [plain, encoded] : kRfcVectors) {
    EXPECT_EQ(base64_encode(plain), encoded) << plain;
    const auto decoded = base64_decode(encoded);
    ASSERT_TRUE(decoded.has_value()) << encoded;
    EXPECT_EQ(*decoded, plain);
  }
}

TEST(Base64, UrlMatchesRfc4648VectorsWithoutPadding) {
  for (const auto& [plain, encoded] : kRfcVectors) {
    const std::string unpadded = strip_padding(encoded);
    EXPECT_EQ(base64url_encode(plain), unpadded) << plain;
    EXPECT_EQ(base64url_encoded_size(plain.size()), unpadded.size());
    const auto decoded = base64url_decode(unpadded);
    ASSERT_TRUE(decoded.has_value()) << unpadded;
    EXPECT_EQ(*decoded, plain);
  }
}

TEST(Base64, AlphabetsDifferOnlyInTheLastTwoCharacters) {
  const std::string bytes = "\xfb\xff\xbf";
  EXPECT_EQ(base64_encode(bytes), "+/+/");
  EXPECT_EQ(base64url_encode(bytes), "-_-_");
  EXPECT_EQ(base64url_decode("-_-_"), bytes);
  EXPECT_EQ(base64_decode("+/+/"), bytes);
  EXPECT_FALSE(base64url_decode("+/+/").has_value());
  EXPECT_FALSE(base64_decode("-_-_").has_value());
}

TEST(Base64, EveryByteValueRoundTrips) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  EXPECT_EQ(base64url_decode(base64url_encode(all)), all);
  EXPECT_EQ(base64_decode(base64_encode(all)), all);
}

TEST(Base64, RandomRoundTripsOfEveryLengthAndAcrossChunkBoundaries) {
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n <= 300; ++n) sizes.push_back(n);
  for (const std::size_t n : {767U, 768U, 769U, 1535U, 1536U, 1537U, 100001U}) sizes.push_back(n);
  for (const std::size_t n : sizes) {
    const std::string bytes = placard::crypto::random_bytes(n);
    const std::string url = base64url_encode(bytes);
    ASSERT_EQ(url.size(), base64url_encoded_size(n)) << n;
    ASSERT_EQ(url.find_first_not_of(kUrlAlphabet), std::string::npos) << n;
    ASSERT_EQ(base64url_decode(url), bytes) << n;
    const std::string std_text = base64_encode(bytes);
    ASSERT_EQ(std_text.size(), (n + 2) / 3 * 4) << n;
    ASSERT_EQ(strip_padding(std_text).size(), url.size()) << n;
    ASSERT_EQ(base64_decode(std_text), bytes) << n;
  }
}

TEST(Base64, EncodeAppendKeepsExistingContent) {
  std::string out = "prefix.";
  base64url_encode_append(out, "foobar");
  base64url_encode_append(out, "f");
  EXPECT_EQ(out, "prefix.Zm9vYmFyZg");
}

TEST(Base64, UrlDecodeRejectsPaddingForeignCharactersAndWhitespace) {
  for (const std::string& bad : std::vector<std::string>{
           "Zg==", "Zm8=", "Zg=", "Zm9v=", "Zm+v", "Zm/v", " Zm9v", "Zm9v ", "Zm 9v", "Zm9v\n",
           "\tZm9v", "Zm9v\r\n", "Zm.9", "Zm9v!", "Zm\xc3\xa9v", std::string("Zm\0v", 4)}) {
    EXPECT_FALSE(base64url_decode(bad).has_value()) << bad;
  }
}

TEST(Base64, UrlDecodeRejectsImpossibleLengths) {
  for (const std::string_view bad : {"Z", "Zm9vY", "Zm9vYmFyZ"}) {
    EXPECT_FALSE(base64url_decode(bad).has_value()) << bad;
  }
  EXPECT_EQ(base64url_decode(""), std::string());
}

TEST(Base64, UrlDecodeRejectsNonCanonicalTrailingBits) {
  EXPECT_EQ(base64url_decode("Zg"), "f");
  EXPECT_FALSE(base64url_decode("Zh").has_value());  // "h" sets unused low bits
  EXPECT_FALSE(base64url_decode("Zv").has_value());
  EXPECT_EQ(base64url_decode("Zm8"), "fo");
  EXPECT_FALSE(base64url_decode("Zm9").has_value());  // "9" sets an unused low bit
  EXPECT_FALSE(base64url_decode("Zm_").has_value());
}

// Every byte string has exactly one accepted text: for each possible final group of 2 or 3
// characters, decoding succeeds exactly when re-encoding gives the same text back.
TEST(Base64, UrlDecodeAcceptsExactlyTheCanonicalTails) {
  std::size_t accepted2 = 0;
  std::size_t accepted3 = 0;
  for (const char a : kUrlAlphabet) {
    for (const char b : kUrlAlphabet) {
      const std::string two = {a, b};
      const auto d2 = base64url_decode(two);
      if (d2) {
        ++accepted2;
        ASSERT_EQ(base64url_encode(*d2), two);
      }
      for (const char c : kUrlAlphabet) {
        const std::string tail3 = {a, b, c};
        const auto d3 = base64url_decode(tail3);
        if (d3) {
          ++accepted3;
          ASSERT_EQ(base64url_encode(*d3), tail3);
        }
      }
    }
  }
  EXPECT_EQ(accepted2, 256U);    // one text per byte value
  EXPECT_EQ(accepted3, 65536U);  // one text per 2-byte value
}

TEST(Base64, StandardDecodeIsStrictAboutPadding) {
  for (const std::string_view bad :
       {"Zg", "Zm8", "Zg=", "Zg===", "Zm9v====", "Zm8==", "Z===", "====", "Zg==Zm9v", "Zm=v",
        "=Zm9", "Zh==", "Zm9=", "Zm9v\n", " Zm9v", "Zm-v", "Zm_v", "Zm9v Zm9v"}) {
    EXPECT_FALSE(base64_decode(bad).has_value()) << bad;
  }
  EXPECT_EQ(base64_decode(""), std::string());
}

TEST(Base64, DecodeIntoUsesTheGivenBufferAndRefusesSmallOnes) {
  std::array<unsigned char, 6> exact{};
  const auto n = base64url_decode_into("Zm9vYmFy", exact);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(*n, 6U);
  EXPECT_EQ(std::string(exact.begin(), exact.end()), "foobar");

  std::array<unsigned char, 5> small{};
  EXPECT_FALSE(base64url_decode_into("Zm9vYmFy", small).has_value());
  std::array<unsigned char, 64> big{};
  EXPECT_FALSE(base64url_decode_into("Zm9vYmE=", big).has_value());
  EXPECT_EQ(base64url_decoded_size(8), 6U);
  EXPECT_EQ(base64url_decoded_size(7), 5U);
  EXPECT_EQ(base64url_decoded_size(6), 4U);
}

}  // namespace
