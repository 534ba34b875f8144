#pragma once
#include <optional>
#include <string>

#include "lib/admin/context.h"
#include "lib/catalog/settings.h"
#include "lib/http/request.h"

namespace placard::admin {

inline constexpr int kSessionLifetimeSeconds = 12 * 3600;  // absolute, from sign-in

// The service's own origin: the setting publicOrigin, else the request's scheme and Host.
std::string service_origin(const http::Request& request, const catalog::Settings& settings);

// Contract section 6: every admin write needs Origin equal to the service's origin and
// X-Service-Mark: admin; otherwise 403 csrf_check_failed (thrown).
void require_same_origin_write(const http::Request& request, const catalog::Settings& settings);

// The session cookie's name: "__Host-placard_session" over HTTPS, "placard_session" otherwise.
std::string session_cookie_name(const http::Request& request);

// SHA-256 of the session token in the request's cookie; nullopt when there is none or it is not
// a well-formed token (43 base64url characters).
std::optional<db::TokenHash> session_token_hash(const http::Request& request);

// The signed-in approved account, or 401 not_signed_in (thrown). Each use keeps the session
// alive for another idle period. A live session of an account that is no longer approved (pending
// or revoked) is deleted and answers 401.
Actor require_session(const http::Request& request, db::AccountStore& accounts,
                      const catalog::Settings& settings);

// Set-Cookie values: a new session token, and one that removes the cookie.
std::string session_cookie(const http::Request& request, const std::string& token);
std::string cleared_session_cookie(const http::Request& request);

}  // namespace placard::admin
