#include "lib/admin/session_handlers.h"

#include <algorithm>

#include "lib/admin/access.h"
#include "lib/admin/account_json.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/hmac.h"
#include "lib/crypto/password_hash.h"
#include "lib/crypto/random.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "lib/http/client_address.h"
#include "lib/util/time_format.h"

namespace placard::admin {

namespace {

std::string session_json(const db::Account& account, std::int64_t expires_at) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("account");
  write_account(w, account);
  w.Key("expiresAt");
  write_time(w, expires_at);
  w.EndObject();
  return json::to_string(buf);
}

http::ApiError too_many(const db::FailureWindow& window, std::int64_t now) {
  const std::int64_t wait =
      std::max<std::int64_t>(1, window.oldest_at + kThrottleWindowSeconds - now);
  http::ApiError e{429, "too_many_attempts", "Too many failed sign-ins: try again later"};
  e.with_header("Retry-After", std::to_string(wait));
  return e;
}

std::string audit_email(const std::string& email) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("email");
  w.String(email);
  w.EndObject();
  return json::to_string(buf);
}

http::Response sign_in(http::Request& req, AdminContext& ctx) {
  const Body body(req, {"email", "password"});
  const std::string email = body.string("email", 1, 254);
  const std::string password = body.string("password", 1, 1024);
  auto& accounts = ctx.stores.accounts;
  const auto client = crypto::hmac_sha256(ctx.config.client_key,
                                          http::client_address(req, ctx.config.trusted_proxies));
  const auto account = accounts.find_by_email(email);
  const std::int64_t now = accounts.now();

  // Throttled before any password is checked: a locked account answers 429 even to the right one.
  if (account) {
    const auto w = accounts.account_failures(account->id, kThrottleWindowSeconds);
    if (w.count >= kMaxFailuresPerAccount) throw too_many(w, now);
  }
  const auto cw = accounts.client_failures(client, kThrottleWindowSeconds);
  if (cw.count >= kMaxFailuresPerClient) throw too_many(cw, now);

  // An unknown email costs the same scrypt work as a wrong password.
  const bool good = crypto::verify_password(
      password, account ? account->password_hash : ctx.config.dummy_password_hash);
  if (!account || !good) {
    ctx.stores.tx.run([&] {
      accounts.record_failure(account ? std::optional<std::uint64_t>(account->id) : std::nullopt,
                              client);
      ctx.stores.tx.audit({account ? std::optional<std::uint64_t>(account->id) : std::nullopt,
                           "session.sign_in_failed",
                           account ? "account:" + std::to_string(account->id) : "account", "",
                           account ? audit_email(account->email) : ""});
    });
    throw http::ApiError{401, "invalid_credentials", "Wrong email or password"};
  }
  if (account->status != "approved") {
    throw http::ApiError{403, "account_not_approved",
                         account->status == "revoked" ? "This account has been revoked"
                                                      : "This account waits for approval"};
  }

  std::string raw = crypto::random_bytes(32);
  const std::string token = crypto::base64url_encode(raw);
  const auto hash = crypto::sha256(raw);
  const std::string rehash = crypto::password_hash_outdated(account->password_hash)
                                 ? crypto::hash_password(password)
                                 : std::string{};
  ctx.stores.tx.run([&] {
    if (!rehash.empty()) accounts.set_password_hash(account->id, rehash);
    accounts.create_session(hash, account->id, kSessionLifetimeSeconds);
    accounts.record_sign_in(account->id);
    ctx.stores.tx.audit({account->id, "session.sign_in", "account:" + std::to_string(account->id),
                         "", audit_email(account->email)});
  });
  const auto fresh = accounts.find(account->id).value_or(*account);
  auto response = ok(session_json(fresh, now + kSessionLifetimeSeconds));
  response.set_header("Set-Cookie", session_cookie(req, ctx.config, token));
  return response;
}

}  // namespace

void add_session_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.open_write("POST", "/session", [&ctx](http::Request& req) { return sign_in(req, ctx); });

  admin.read("/session", [](http::Request&, const Actor& actor) {
    return ok(session_json(actor.account, actor.expires_at));
  });

  admin.write("DELETE", "/session", [&ctx](http::Request& req, const Actor& actor) {
    const auto hash = session_token_hash(req, ctx.config);
    ctx.stores.tx.run([&] {
      if (hash) ctx.stores.accounts.delete_session(*hash);
      ctx.stores.tx.audit({actor.account.id, "session.sign_out",
                           "account:" + std::to_string(actor.account.id), "", ""});
    });
    auto response = no_content();
    response.set_header("Set-Cookie", cleared_session_cookie(req, ctx.config));
    return response;
  });
}

}  // namespace placard::admin
