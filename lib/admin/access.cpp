#include "lib/admin/access.h"

#include "lib/crypto/base64.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "lib/http/cookies.h"

namespace placard::admin {

namespace {
constexpr std::size_t kTokenChars = 43;  // base64url of 32 bytes, unpadded

http::ApiError csrf_failed() {
  return {403, "csrf_check_failed",
          "Admin writes need this service's Origin and the header X-Service-Mark: admin"};
}

std::string cookie_attributes(const http::Request& request, const AdminConfig& config) {
  std::string a = "; Path=" + (config.base_path.empty() ? std::string("/") : config.base_path) +
                  "; HttpOnly; SameSite=Strict";
  if (secure_cookie(request, config)) a += "; Secure";
  return a;
}
}  // namespace

std::string service_origin(const AdminConfig& config, const catalog::Settings& settings) {
  return !config.public_origin.empty() ? config.public_origin : settings.public_origin;
}

void require_same_origin_write(const http::Request& request, const AdminConfig& config,
                               const catalog::Settings& settings) {
  const std::string expected = service_origin(config, settings);
  if (expected.empty()) {
    throw http::ApiError{403, "csrf_check_failed",
                         "Admin writes are off until the server's public_origin is set in its "
                         "config file (placardctl config set public_origin https://HOST)"};
  }
  const std::string_view mark = request.header("x-service-mark");
  if (mark != "admin") throw csrf_failed();
  const std::string_view origin = request.header("origin");
  if (origin.empty() || !http::iequals(origin, expected)) throw csrf_failed();
}

bool secure_cookie(const http::Request& request, const AdminConfig& config) {
  return request.https || config.public_origin.rfind("https://", 0) == 0;
}

std::string session_cookie_name(const http::Request& request, const AdminConfig& config) {
  if (!secure_cookie(request, config)) return "placard_session";
  return config.base_path.empty() ? "__Host-placard_session" : "__Secure-placard_session";
}

std::optional<db::TokenHash> session_token_hash(const http::Request& request,
                                                const AdminConfig& config) {
  const auto token =
      http::cookie_value(request.header("cookie"), session_cookie_name(request, config));
  if (!token || token->size() != kTokenChars) return std::nullopt;
  const auto raw = crypto::base64url_decode(*token);
  if (!raw || raw->size() != 32) return std::nullopt;
  return crypto::sha256(*raw);
}

Actor require_session(const http::Request& request, const AdminConfig& config,
                      db::AccountStore& accounts, const catalog::Settings& settings) {
  const auto hash = session_token_hash(request, config);
  if (!hash) throw http::ApiError{401, "not_signed_in", "Sign in first"};
  const auto live = accounts.use_session(*hash, settings.session_idle_minutes * 60);
  if (!live) throw http::ApiError{401, "not_signed_in", "The session has ended: sign in again"};
  if (live->account.status != "approved") {
    // Revocation deletes the sessions, but a sign-in that read the status just before the
    // revocation can still make one after it: this check is what ends that session, and the
    // session goes (an account approved again signs in anew).
    accounts.delete_session(*hash);
    throw http::ApiError{401, "not_signed_in", "The session has ended: sign in again"};
  }
  return {live->account, live->expires_at};
}

std::string session_cookie(const http::Request& request, const AdminConfig& config,
                           const std::string& token) {
  return session_cookie_name(request, config) + "=" + token + cookie_attributes(request, config) +
         "; Max-Age=" + std::to_string(kSessionLifetimeSeconds);
}

std::string cleared_session_cookie(const http::Request& request, const AdminConfig& config) {
  return session_cookie_name(request, config) + "=" + cookie_attributes(request, config) +
         "; Max-Age=0";
}

}  // namespace placard::admin
