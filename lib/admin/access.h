#pragma once
#include <optional>
#include <string>

#include "lib/admin/context.h"
#include "lib/catalog/settings.h"
#include "lib/http/request.h"

namespace placard::admin {

inline constexpr int kSessionLifetimeSeconds = 12 * 3600;  // absolute, from sign-in

// The service's own origin: the config file's public_origin, else the database setting
// publicOrigin (set by SQL before public_origin existed; read for those installs only), else
// empty. Never the request's own Host (issue 22 item 7: DNS rebinding).
std::string service_origin(const AdminConfig& config, const catalog::Settings& settings);

// Contract section 6: every admin write needs Origin equal to the service's origin and
// X-Service-Mark: admin; otherwise 403 csrf_check_failed (thrown). With no origin configured
// every admin write is refused so (the message says to set public_origin).
void require_same_origin_write(const http::Request& request, const AdminConfig& config,
                               const catalog::Settings& settings);

// Whether the session cookie is Secure: the request came over HTTPS (as the web server or a
// trusted proxy says: api::Service sets request.https) or public_origin is https.
bool secure_cookie(const http::Request& request, const AdminConfig& config);

// The session cookie's name: "__Host-placard_session" when Secure at the root (the prefix needs
// Path=/), "__Secure-placard_session" when Secure under a base path, "placard_session" otherwise.
std::string session_cookie_name(const http::Request& request, const AdminConfig& config);

// SHA-256 of the session token in the request's cookie; nullopt when there is none or it is not
// a well-formed token (43 base64url characters).
std::optional<db::TokenHash> session_token_hash(const http::Request& request,
                                                const AdminConfig& config);

// The signed-in approved account, or 401 not_signed_in (thrown). Each use keeps the session
// alive for another idle period. A live session of an account that is no longer approved (pending
// or revoked) is deleted and answers 401.
Actor require_session(const http::Request& request, const AdminConfig& config,
                      db::AccountStore& accounts, const catalog::Settings& settings);

// Set-Cookie values: a new session token, and one that removes the cookie. Path is the base path
// ("/" at the root).
std::string session_cookie(const http::Request& request, const AdminConfig& config,
                           const std::string& token);
std::string cleared_session_cookie(const http::Request& request, const AdminConfig& config);

}  // namespace placard::admin
