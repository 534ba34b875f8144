// Token verification on any text, and sign -> verify round trips of claims made from the bytes.
// Input: a token as it arrives in a query string or body (seeds are real tokens of this ring).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lib/tokens/key_ring.h"
#include "lib/tokens/token.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;
using placard::tokens::KeyRing;
using placard::tokens::TokenClaims;
using placard::tokens::TokenKind;
using placard::tokens::VerifyStatus;

// Two keys (the seed tokens were signed with them); one ring per active key.
constexpr const char* kSpec =
    "k2026a:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8,"
    "old-key_1:IJ8gnyCfIJ8gnyCfIJ8gnyCfIJ8gnyCfIJ8gnyCfIJ8";

struct Rings {
  KeyRing a = KeyRing::parse(kSpec, "k2026a");
  KeyRing b = KeyRing::parse(kSpec, "old-key_1");
  placard::tokens::MacWorkspace workspace;
};

Rings& rings() {
  static Rings r;  // built once: KeyRing is immutable after construction
  return r;
}

// A valid token is canonical: signing its claims again with its key gives the same text.
void check_verified(std::string_view token, TokenKind kind) {
  auto& r = rings();
  const auto result = placard::tokens::verify_token(r.a, token, kind, r.workspace);
  fuzz_check(placard::tokens::verify_token(r.b, token, kind).status == result.status,
             "verification depends on the active key");
  if (result.status != VerifyStatus::ok) return;
  fuzz_check(result.claims.kind == kind, "ok with another kind");
  const bool same = placard::tokens::sign_token(r.a, result.claims) == token ||
                    placard::tokens::sign_token(r.b, result.claims) == token;
  fuzz_check(same, "a verified token is not the canonical signature of its claims");
}

void round_trip(FuzzedDataProvider& in) {
  TokenClaims c;
  c.kind = in.ConsumeBool() ? TokenKind::impression : TokenKind::click;
  const auto nonce = in.ConsumeBytes<unsigned char>(c.nonce.size());
  std::copy(nonce.begin(), nonce.end(), c.nonce.begin());
  c.issued_at = in.ConsumeIntegral<std::int64_t>();
  c.offer_id = in.ConsumeIntegral<std::uint64_t>();
  c.country = in.ConsumeRandomLengthString(3);
  c.placement = in.ConsumeRandomLengthString(70);
  auto& r = rings();
  std::string token;
  try {
    token = placard::tokens::sign_token(r.a, c);
  } catch (const std::invalid_argument&) {
    return;  // claims outside the field rules
  }
  fuzz_check(token.size() <= placard::tokens::kMaxTokenLength, "signed token too long");
  const auto back = placard::tokens::verify_token(r.b, token, c.kind);
  fuzz_check(back.status == VerifyStatus::ok && back.claims == c, "sign -> verify lost claims");
  const auto other = c.kind == TokenKind::impression ? TokenKind::click : TokenKind::impression;
  fuzz_check(placard::tokens::verify_token(r.a, token, other).status == VerifyStatus::wrong_kind,
             "a token verified as the other kind");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);
  check_verified(text, TokenKind::impression);
  check_verified(text, TokenKind::click);
  try {
    (void)KeyRing::parse(text, "k2026a");
  } catch (const std::invalid_argument&) {
  }
  FuzzedDataProvider in(data, size);
  round_trip(in);
  return 0;
}
