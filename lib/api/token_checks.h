#pragma once
#include <cstdint>
#include <string_view>

#include "lib/catalog/settings.h"
#include "lib/http/api_error.h"
#include "lib/store/event_store.h"
#include "lib/tokens/key_ring.h"
#include "lib/tokens/token.h"

namespace placard::api {

// Verified claims of a token of the expected kind; 400 invalid_token otherwise.
tokens::TokenClaims verified_claims(const tokens::KeyRing& keys, std::string_view token,
                                    tokens::TokenKind kind);
bool is_expired(const tokens::TokenClaims& claims, const catalog::Settings& settings,
                std::int64_t now);
http::ApiError invalid_token(const std::string& message);
http::ApiError token_expired();
db::EventRecord event_of(const tokens::TokenClaims& claims);

}  // namespace placard::api
