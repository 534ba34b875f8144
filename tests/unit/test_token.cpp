#include "lib/tokens/token.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lib/crypto/base64.h"
#include "lib/crypto/random.h"
#include "lib/tokens/key_ring.h"
#include "tests/unit/key_rings.h"

namespace {

using placard::crypto::base64url_decode;
using placard::crypto::base64url_encode;
using placard::tokens::KeyRing;
using placard::tokens::nonce_hex;
using placard::tokens::sign_token;
using placard::tokens::TokenClaims;
using placard::tokens::TokenKind;
using placard::tokens::verify_token;
using placard::tokens::VerifyStatus;

constexpr std::string_view kUrlAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

using placard::test::key_text;
using placard::test::ring;

TokenClaims sample_claims(TokenKind kind = TokenKind::impression) {
  TokenClaims c;
  c.kind = kind;
  for (std::size_t i = 0; i < c.nonce.size(); ++i)
    c.nonce[i] = static_cast<unsigned char>(0xa0 + i);
  c.issued_at = 1767225600;  // 2026-01-01T00:00:00Z
  c.offer_id = 1042;
  c.placement = "popup-main";
  c.country = "DE";
  return c;
}

TokenClaims max_claims() {
  TokenClaims c = sample_claims(TokenKind::click);
  c.placement = std::string(64, 'p');
  c.offer_id = UINT64_MAX;
  c.issued_at = 0xffffffffLL;  // the last second a u32 holds (2106-02-07)
  return c;
}

const KeyRing& main_ring() {
  static const KeyRing keys = ring("k1:" + key_text('a'), "k1");
  return keys;
}

// --- payload built independently of the implementation, per the documented format ----------

void put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((v >> shift) & 0xff));
}

// Length byte, then the big-endian bytes without leading zero bytes (written out by hand).
std::string short_u64(std::uint64_t v) {
  std::string bytes;
  for (int shift = 56; shift >= 0; shift -= 8) {
    const auto b = static_cast<char>((v >> shift) & 0xff);
    if (!bytes.empty() || b != 0 || shift == 0) bytes.push_back(b);
  }
  return std::string(1, static_cast<char>(bytes.size())) + bytes;
}

std::string payload_of(const TokenClaims& c, const std::string& kid, std::uint8_t version = 2,
                       std::uint8_t kind_byte = 0) {
  std::string p;
  p.push_back(static_cast<char>(version));
  p.push_back(static_cast<char>(kind_byte != 0 ? kind_byte : static_cast<std::uint8_t>(c.kind)));
  p.push_back(static_cast<char>(kid.size()));
  p += kid;
  p.append(reinterpret_cast<const char*>(c.nonce.data()), c.nonce.size());
  put_u32(p, static_cast<std::uint32_t>(c.issued_at));
  p += short_u64(c.offer_id);
  p += c.country;
  p.push_back(static_cast<char>(c.placement.size()));
  p += c.placement;
  return p;
}

// A token with a valid MAC (HMAC-SHA-256 truncated to its first 16 bytes) over an arbitrary
// payload, signed by `kid` of `keys`.
std::string forge_with_key(const KeyRing& keys, const std::string& kid, const std::string& payload,
                           std::size_t mac_bytes = 16) {
  const auto mac = keys.mac(kid, payload);
  return base64url_encode(payload) + "." +
         base64url_encode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac_bytes));
}

// ---------------------------------------------------------------------------------------------

TEST(TokenSigning, RoundTripKeepsEveryClaim) {
  for (const TokenClaims& claims :
       {sample_claims(), sample_claims(TokenKind::click), max_claims()}) {
    const std::string token = sign_token(main_ring(), claims);
    const auto result = verify_token(main_ring(), token, claims.kind);
    ASSERT_EQ(result.status, VerifyStatus::ok) << token;
    EXPECT_EQ(result.claims, claims);
  }
}

TEST(TokenSigning, PayloadHasTheDocumentedLayout) {
  const TokenClaims claims = sample_claims(TokenKind::click);
  const std::string token = sign_token(main_ring(), claims);
  const auto dot = token.find('.');
  ASSERT_NE(dot, std::string::npos);
  EXPECT_EQ(base64url_decode(token.substr(0, dot)), payload_of(claims, "k1"));
  EXPECT_EQ(token, forge_with_key(main_ring(), "k1", payload_of(claims, "k1")));
}

TEST(TokenSigning, TamperingWithAnyCharacterFails) {
  const std::string token = sign_token(main_ring(), sample_claims());
  ASSERT_EQ(verify_token(main_ring(), token, TokenKind::impression).status, VerifyStatus::ok);
  const std::string replacements = std::string(kUrlAlphabet) + ".";
  std::size_t tried = 0;
  for (std::size_t pos = 0; pos < token.size(); ++pos) {
    for (const char c : replacements) {
      if (c == token[pos]) continue;
      std::string tampered = token;
      tampered[pos] = c;
      ++tried;
      ASSERT_NE(verify_token(main_ring(), tampered, TokenKind::impression).status, VerifyStatus::ok)
          << "position " << pos << " replaced by " << c;
    }
  }
  EXPECT_EQ(tried, token.size() * (replacements.size() - 1));
}

TEST(TokenSigning, EveryTruncationFails) {
  const std::string token = sign_token(main_ring(), max_claims());
  for (std::size_t len = 0; len < token.size(); ++len) {
    EXPECT_EQ(verify_token(main_ring(), token.substr(0, len), TokenKind::click).status,
              VerifyStatus::malformed)
        << len;
    EXPECT_NE(verify_token(main_ring(), token.substr(token.size() - len), TokenKind::click).status,
              VerifyStatus::ok)
        << "suffix " << len;
  }
}

TEST(TokenSigning, AppendedOrInsertedBytesFail) {
  const std::string token = sign_token(main_ring(), sample_claims());
  const auto dot = token.find('.');
  for (const char c : std::string(kUrlAlphabet) + ".=+/ \n") {
    EXPECT_NE(verify_token(main_ring(), token + c, TokenKind::impression).status, VerifyStatus::ok)
        << c;
    std::string inserted = token;
    inserted.insert(dot, 1, c);
    EXPECT_NE(verify_token(main_ring(), inserted, TokenKind::impression).status, VerifyStatus::ok)
        << c;
    EXPECT_NE(verify_token(main_ring(), c + token, TokenKind::impression).status, VerifyStatus::ok)
        << c;
  }
  EXPECT_NE(verify_token(main_ring(), token + "AAAA", TokenKind::impression).status,
            VerifyStatus::ok);
  EXPECT_NE(verify_token(main_ring(), token + token, TokenKind::impression).status,
            VerifyStatus::ok);
}

TEST(TokenSigning, StructurallyValidButWrongPayloadsAreMalformedEvenWithAValidMac) {
  const TokenClaims c = sample_claims();
  const auto status = [](const std::string& payload) {
    return verify_token(main_ring(), forge_with_key(main_ring(), "k1", payload),
                        TokenKind::impression)
        .status;
  };
  // The helper itself produces an acceptable token, so each failure below is the variation's.
  ASSERT_EQ(status(payload_of(c, "k1")), VerifyStatus::ok);

  EXPECT_EQ(status(payload_of(c, "k1", 0)), VerifyStatus::malformed);
  EXPECT_EQ(status(payload_of(c, "k1", 1)), VerifyStatus::malformed);  // the old long format
  EXPECT_EQ(status(payload_of(c, "k1", 3)), VerifyStatus::malformed);
  EXPECT_EQ(status(payload_of(c, "k1", 2, 3)), VerifyStatus::malformed);
  EXPECT_EQ(status(payload_of(c, "k1", 2, 0xff)), VerifyStatus::malformed);
  EXPECT_EQ(status(payload_of(c, "k1") + "x"), VerifyStatus::malformed);
  EXPECT_EQ(status(payload_of(c, "k1") + std::string(1, '\0')), VerifyStatus::malformed);
  const std::string full = payload_of(c, "k1");
  EXPECT_EQ(status(full.substr(0, full.size() - 1)), VerifyStatus::malformed);
  EXPECT_EQ(status(""), VerifyStatus::malformed);

  TokenClaims no_placement = c;
  no_placement.placement.clear();
  EXPECT_EQ(status(payload_of(no_placement, "k1")), VerifyStatus::malformed);
  TokenClaims long_placement = c;
  long_placement.placement = std::string(65, 'p');
  EXPECT_EQ(status(payload_of(long_placement, "k1")), VerifyStatus::malformed);
  // Placement length byte larger than the rest of the payload.
  std::string overlong = payload_of(c, "k1");
  overlong[overlong.size() - c.placement.size() - 1] = static_cast<char>(c.placement.size() + 1);
  EXPECT_EQ(status(overlong), VerifyStatus::malformed);
}

TEST(TokenSigning, OfferIdHasExactlyOneEncoding) {
  const auto status = [](const std::string& payload) {
    return verify_token(main_ring(), forge_with_key(main_ring(), "k1", payload),
                        TokenKind::impression)
        .status;
  };
  const TokenClaims c = sample_claims();  // offer 1042 = 0x0412: two bytes
  const std::string good = payload_of(c, "k1");
  const std::size_t at = 3 + 2 + 16 + 4;  // the offer id's length byte
  ASSERT_EQ(good.substr(at, 3), std::string("\x02\x04\x12", 3));
  ASSERT_EQ(status(good), VerifyStatus::ok);
  const auto with_id = [&](const std::string& encoded) {
    return good.substr(0, at) + encoded + good.substr(at + 3);
  };
  EXPECT_EQ(status(with_id(std::string("\x03\x00\x04\x12", 4))), VerifyStatus::malformed);
  EXPECT_EQ(status(with_id(std::string("\x00", 1))), VerifyStatus::malformed);
  EXPECT_EQ(status(with_id(std::string("\x09\x01\x02\x03\x04\x05\x06\x07\x08\x09", 10))),
            VerifyStatus::malformed);
  // Every size from 1 to 8 bytes, and offer id 0 in one byte, round-trips.
  for (const std::uint64_t id : std::initializer_list<std::uint64_t>{
           0, 1, 0xff, 0x100, 0xffffffff, 0x100000000, 0x00ffffffffffffff, UINT64_MAX}) {
    TokenClaims t = sample_claims();
    t.offer_id = id;
    const auto result = verify_token(main_ring(), sign_token(main_ring(), t), t.kind);
    ASSERT_EQ(result.status, VerifyStatus::ok) << id;
    EXPECT_EQ(result.claims.offer_id, id);
    EXPECT_EQ(status(payload_of(t, "k1")), VerifyStatus::ok) << id;
  }
}

TEST(TokenSigning, MacIsTheFirst16BytesOfHmacSha256) {
  const std::string payload = payload_of(sample_claims(), "k1");
  EXPECT_EQ(verify_token(main_ring(), forge_with_key(main_ring(), "k1", payload, 16),
                         TokenKind::impression)
                .status,
            VerifyStatus::ok);
  // The full 32-byte MAC, or any other length, is not the format.
  for (const std::size_t n : {15U, 17U, 32U}) {
    EXPECT_EQ(verify_token(main_ring(), forge_with_key(main_ring(), "k1", payload, n),
                           TokenKind::impression)
                  .status,
              VerifyStatus::malformed)
        << n;
  }
}

TEST(TokenSigning, TypicalTokenIsShortAndItsPayloadFitsOneHashBlock) {
  const KeyRing dated = ring("k20261123:" + key_text('d'), "k20261123");
  TokenClaims c = sample_claims();
  c.offer_id = 47621;
  const std::string token = sign_token(dated, c);
  EXPECT_EQ(token.size(), 87U) << token;  // 48-byte payload -> 64 chars, ".", 22-char MAC
  const auto payload = base64url_decode(token.substr(0, token.find('.')));
  ASSERT_TRUE(payload);
  EXPECT_LE(payload->size(), 55U);  // + 0x80 + 8-byte length = one 64-byte block
}

TEST(TokenSigning, AppendingWithAReusedWorkspaceGivesTheSameTokens) {
  placard::tokens::MacWorkspace workspace;
  std::string out = "prefix:";
  std::string expected = out;
  for (int i = 0; i < 5; ++i) {
    TokenClaims c = sample_claims(i % 2 == 0 ? TokenKind::impression : TokenKind::click);
    c.offer_id = 1000 + static_cast<std::uint64_t>(i);
    placard::tokens::sign_token_append(out, main_ring(), c, workspace);
    expected += sign_token(main_ring(), c);
    EXPECT_EQ(verify_token(main_ring(), sign_token(main_ring(), c), c.kind, workspace).status,
              VerifyStatus::ok);
  }
  EXPECT_EQ(out, expected);
}

TEST(TokenSigning, KidInsideThePayloadIsCheckedStrictly) {
  const TokenClaims c = sample_claims();
  const std::string key = key_text('a');
  // Payloads naming kids that are not valid key ids, signed with a ring that does hold k1.
  for (const std::string& bad_kid : {std::string(), std::string("k!"), std::string(17, 'k'),
                                     std::string("k\0", 2), std::string("k.1")}) {
    const std::string payload = payload_of(c, bad_kid);
    EXPECT_EQ(
        verify_token(main_ring(), forge_with_key(main_ring(), "k1", payload), TokenKind::impression)
            .status,
        VerifyStatus::malformed)
        << bad_kid;
  }
  // A 16-character kid is fine.
  const KeyRing long_kid = ring("abcdefghijklmnop:" + key, "abcdefghijklmnop");
  const auto result = verify_token(long_kid, sign_token(long_kid, c), TokenKind::impression);
  EXPECT_EQ(result.status, VerifyStatus::ok);
}

TEST(TokenSigning, WrongKeyWithTheSameKidIsBadSignature) {
  const KeyRing other = ring("k1:" + key_text('b'), "k1");
  const std::string token = sign_token(main_ring(), sample_claims());
  const auto result = verify_token(other, token, TokenKind::impression);
  EXPECT_EQ(result.status, VerifyStatus::bad_signature);
  EXPECT_EQ(result.claims, TokenClaims{});  // nothing leaks from an unverified token
}

TEST(TokenSigning, UnknownKidIsUnknownKey) {
  const KeyRing other = ring("k2:" + key_text('a'), "k2");  // same key bytes, other id
  const std::string token = sign_token(main_ring(), sample_claims());
  EXPECT_EQ(verify_token(other, token, TokenKind::impression).status, VerifyStatus::unknown_key);
}

TEST(TokenSigning, KindMismatchIsWrongKind) {
  const std::string click = sign_token(main_ring(), sample_claims(TokenKind::click));
  const std::string impression = sign_token(main_ring(), sample_claims(TokenKind::impression));
  EXPECT_EQ(verify_token(main_ring(), click, TokenKind::impression).status,
            VerifyStatus::wrong_kind);
  EXPECT_EQ(verify_token(main_ring(), impression, TokenKind::click).status,
            VerifyStatus::wrong_kind);
  EXPECT_EQ(verify_token(main_ring(), click, TokenKind::click).status, VerifyStatus::ok);
  EXPECT_NE(click, impression);
}

TEST(TokenSigning, KeyRotation) {
  const std::string old_key = key_text('o');
  const std::string new_key = key_text('n');
  const KeyRing before = ring("old:" + old_key, "old");
  const std::string old_token = sign_token(before, sample_claims());

  const KeyRing during = ring("new:" + new_key + " , old:" + old_key, "new");
  EXPECT_EQ(during.active_kid(), "new");
  EXPECT_EQ(verify_token(during, old_token, TokenKind::impression).status, VerifyStatus::ok);
  const std::string new_token = sign_token(during, sample_claims());
  EXPECT_NE(new_token, old_token);
  EXPECT_EQ(verify_token(during, new_token, TokenKind::impression).status, VerifyStatus::ok);
  EXPECT_EQ(verify_token(before, new_token, TokenKind::impression).status,
            VerifyStatus::unknown_key);

  const KeyRing after = ring("new:" + new_key, "new");
  EXPECT_EQ(verify_token(after, old_token, TokenKind::impression).status,
            VerifyStatus::unknown_key);
  EXPECT_EQ(verify_token(after, new_token, TokenKind::impression).status, VerifyStatus::ok);
}

TEST(TokenSigning, MovedPayloadOrSignatureFails) {
  TokenClaims a = sample_claims();
  TokenClaims b = sample_claims();
  b.offer_id = 1043;
  const std::string ta = sign_token(main_ring(), a);
  const std::string tb = sign_token(main_ring(), b);
  const std::string spliced = ta.substr(0, ta.find('.')) + tb.substr(tb.find('.'));
  EXPECT_EQ(verify_token(main_ring(), spliced, TokenKind::impression).status,
            VerifyStatus::bad_signature);
}

TEST(TokenSigning, EveryClaimChangesTheToken) {
  const TokenClaims base = sample_claims();
  const std::string token = sign_token(main_ring(), base);
  EXPECT_EQ(sign_token(main_ring(), base), token);  // deterministic for the same claims
  std::vector<TokenClaims> variants(6, base);
  variants[0].nonce[15] ^= 1;
  variants[1].issued_at += 1;
  variants[2].offer_id += 1;
  variants[3].placement = "popup-side";
  variants[4].country = "AT";
  variants[5].kind = TokenKind::click;
  for (const auto& v : variants) EXPECT_NE(sign_token(main_ring(), v), token);
}

TEST(TokenSigning, RandomNoncesGiveDistinctTokens) {
  std::vector<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    TokenClaims c = sample_claims();
    placard::crypto::random_fill(c.nonce);
    seen.push_back(sign_token(main_ring(), c));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

// [A-Za-z0-9_-]+ "." [A-Za-z0-9_-]{22}
bool url_safe_shape(const std::string& token) {
  const auto dot = token.find('.');
  return dot != std::string::npos && dot > 0 && token.size() - dot - 1 == 22 &&
         token.substr(0, dot).find_first_not_of(kUrlAlphabet) == std::string::npos &&
         token.substr(dot + 1).find_first_not_of(kUrlAlphabet) == std::string::npos;
}

TEST(TokenSigning, LongestTokenIsWellUnder512AndUrlSafe) {
  const KeyRing long_kid = ring("abcdefghijklmnop:" + key_text('z'), "abcdefghijklmnop");
  const std::string token = sign_token(long_kid, max_claims());
  EXPECT_EQ(token.size(), 177U);  // 115-byte payload -> 154 chars, ".", 22-char MAC
  EXPECT_LE(token.size(), 256U);
  EXPECT_LT(token.size(), placard::tokens::kMaxTokenLength);
  EXPECT_TRUE(url_safe_shape(token)) << token;
  for (int i = 0; i < 100; ++i) {
    TokenClaims c = max_claims();
    placard::crypto::random_fill(c.nonce);
    c.offer_id = static_cast<std::uint64_t>(i) * 0x0123456789abcdefULL;
    EXPECT_TRUE(url_safe_shape(sign_token(long_kid, c)));
  }
}

TEST(TokenSigning, GarbageIsMalformedAndNeverThrows) {
  const std::string token = sign_token(main_ring(), sample_claims());
  const std::vector<std::string> bad = {
      "",
      ".",
      "..",
      "a.b",
      token.substr(0, token.find('.')),
      token.substr(0, token.find('.')) + ".",
      "." + token.substr(token.find('.') + 1),
      token.substr(0, token.find('.')) + ".." + token.substr(token.find('.') + 1),
      std::string(513, 'A'),
      std::string(400, 'A') + "." + std::string(22, 'A'),
      token.substr(0, token.find('.')) + "." + std::string(23, 'A'),
      token.substr(0, token.find('.')) + "." + std::string(43, 'A'),
      token + "=",
      std::string(token).replace(3, 1, "+"),
      std::string(token).replace(3, 1, "/"),
      std::string(token).replace(3, 1, " "),
      std::string(token).replace(3, 1, std::string(1, '\0')),
      std::string(token).replace(3, 1, "\xc3\xa9"),
      std::string(token).replace(token.find('.'), 1, "%2E"),
  };
  for (const auto& t : bad) {
    placard::tokens::VerifyResult result{VerifyStatus::ok, {}};
    EXPECT_NO_THROW(result = verify_token(main_ring(), t, TokenKind::impression)) << t;
    EXPECT_EQ(result.status, VerifyStatus::malformed) << t;
  }
  // Long but under the cap, with a payload that does not parse.
  const std::string padded = std::string(489, 'A') + "." + std::string(22, 'A');
  ASSERT_EQ(padded.size(), 512U);
  EXPECT_EQ(verify_token(main_ring(), padded, TokenKind::impression).status,
            VerifyStatus::malformed);
}

TEST(TokenSigning, SignRejectsClaimsOutsideTheFormat) {
  TokenClaims c = sample_claims();
  c.placement.clear();
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c.placement = std::string(65, 'p');
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c = sample_claims();
  c.country = "DEU";
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c.country = "D";
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c = sample_claims();
  c.kind = static_cast<TokenKind>(3);
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c = sample_claims();
  c.issued_at = -1;
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
  c.issued_at = 0x100000000LL;
  EXPECT_THROW(sign_token(main_ring(), c), std::invalid_argument);
}

TEST(TokenSigning, NonceHexIs32LowercaseCharacters) {
  std::array<unsigned char, 16> nonce{};
  for (std::size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<unsigned char>(i * 17);
  EXPECT_EQ(nonce_hex(nonce), "00112233445566778899aabbccddeeff");
}

TEST(TokenSigning, ConcurrentUseOfOneRing) {
  const KeyRing keys = ring("a:" + key_text('a') + ",b:" + key_text('b'), "b");
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&keys, &failures, t] {
      for (int i = 0; i < 500; ++i) {
        TokenClaims c = sample_claims(i % 2 == 0 ? TokenKind::impression : TokenKind::click);
        c.offer_id = static_cast<std::uint64_t>(t) * 1000 + static_cast<std::uint64_t>(i);
        const std::string token = sign_token(keys, c);
        const auto result = verify_token(keys, token, c.kind);
        if (result.status != VerifyStatus::ok || result.claims != c) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// A ring moved after signing still verifies what it signed.
TEST(TokenKeyRing, IsMovable) {
  KeyRing a = ring("k1:" + key_text('a'), "k1");
  const std::string token = sign_token(a, sample_claims());
  KeyRing b = std::move(a);
  EXPECT_EQ(b.active_kid(), "k1");
  EXPECT_EQ(verify_token(b, token, TokenKind::impression).status, VerifyStatus::ok);
  KeyRing c = ring("k9:" + key_text('c'), "k9");
  c = std::move(b);
  EXPECT_EQ(verify_token(c, token, TokenKind::impression).status, VerifyStatus::ok);
}

}  // namespace
