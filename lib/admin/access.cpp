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
}  // namespace

std::string service_origin(const http::Request& request, const catalog::Settings& settings) {
  if (!settings.public_origin.empty()) return settings.public_origin;
  const std::string_view host = request.header("host");
  if (host.empty()) return {};
  return std::string(request.https ? "https://" : "http://") + std::string(host);
}

void require_same_origin_write(const http::Request& request, const catalog::Settings& settings) {
  const std::string_view mark = request.header("x-service-mark");
  if (mark != "admin") throw csrf_failed();
  const std::string_view origin = request.header("origin");
  const std::string expected = service_origin(request, settings);
  if (origin.empty() || expected.empty() || !http::iequals(origin, expected)) throw csrf_failed();
}

std::string session_cookie_name(const http::Request& request) {
  return request.https ? "__Host-placard_session" : "placard_session";
}

std::optional<db::TokenHash> session_token_hash(const http::Request& request) {
  const auto token = http::cookie_value(request.header("cookie"), session_cookie_name(request));
  if (!token || token->size() != kTokenChars) return std::nullopt;
  const auto raw = crypto::base64url_decode(*token);
  if (!raw || raw->size() != 32) return std::nullopt;
  return crypto::sha256(*raw);
}

Actor require_session(const http::Request& request, db::AccountStore& accounts,
                      const catalog::Settings& settings) {
  const auto hash = session_token_hash(request);
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

std::string session_cookie(const http::Request& request, const std::string& token) {
  std::string c =
      session_cookie_name(request) + "=" + token +
      "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(kSessionLifetimeSeconds);
  if (request.https) c += "; Secure";
  return c;
}

std::string cleared_session_cookie(const http::Request& request) {
  std::string c = session_cookie_name(request) + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0";
  if (request.https) c += "; Secure";
  return c;
}

}  // namespace placard::admin
