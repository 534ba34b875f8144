#include "lib/api/token_checks.h"

namespace placard::api {

http::ApiError invalid_token(const std::string& message) {
  return {400, "invalid_token", message};
}

http::ApiError token_expired() {
  return {410, "token_expired", "The token has expired"};
}

tokens::TokenClaims verified_claims(const tokens::KeyRing& keys, std::string_view token,
                                    tokens::TokenKind kind) {
  auto result = tokens::verify_token(keys, token, kind);
  if (result.status != tokens::VerifyStatus::ok) throw invalid_token("The token is not valid");
  return std::move(result.claims);
}

bool is_expired(const tokens::TokenClaims& claims, const catalog::Settings& settings,
                std::int64_t now) {
  return now - claims.issued_at > settings.token_ttl_seconds;
}

db::EventRecord event_of(const tokens::TokenClaims& claims) {
  db::EventRecord e;
  e.nonce = claims.nonce;
  e.offer_id = claims.offer_id;
  e.placement = claims.placement;
  e.country = claims.country;
  e.issued_at = claims.issued_at;
  return e;
}

}  // namespace placard::api
