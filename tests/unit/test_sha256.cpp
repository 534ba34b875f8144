#include "lib/crypto/sha256.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>

namespace {

TEST(CryptoSha256, MatchesKnownDigests) {
  const auto as_text = [](const std::array<unsigned char, 32>& d) {
    return placard::crypto::to_hex(
        std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
  };
  EXPECT_EQ(as_text(placard::crypto::sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(as_text(placard::crypto::sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(CryptoHex, IsLowercaseTwoCharactersPerByte) {
  EXPECT_EQ(placard::crypto::to_hex(std::string("\x00\x01\xab\xff\x10", 5)), "0001abff10");
  EXPECT_EQ(placard::crypto::to_hex(""), "");
}

}  // namespace
