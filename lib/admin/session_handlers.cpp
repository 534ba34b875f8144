#include "lib/admin/session_handlers.h"

#include <algorithm>

#include "lib/admin/access.h"
#include "lib/admin/account_json.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/password_work.h"
#include "lib/admin/throttle_keys.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/password_hash.h"
#include "lib/crypto/random.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
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

// A reserved failure row: released (deleted) unless kept() is called, i.e. when the attempt is
// refused, or fails on anything but a wrong password.
class Reservation {
 public:
  Reservation(db::AccountStore& accounts, std::uint64_t id) : accounts_(accounts), id_(id) {}
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() {
    if (id_ == 0) return;
    try {
      accounts_.release_sign_in(id_);
    } catch (...) {  // NOLINT(bugprone-empty-catch): a lost row only counts one failure too many
    }
  }
  void kept() { id_ = 0; }

 private:
  db::AccountStore& accounts_;
  std::uint64_t id_;
};

http::Response sign_in(http::Request& req, AdminContext& ctx) {
  const Body body(req, {"email", "password"});
  const std::string email = body.string("email", 1, 254);
  const std::string password = body.string("password", 1, 1024);
  if (ctx.config.passwords == nullptr) throw http::service_unavailable("Sign-in is unavailable");
  ctx.config.passwords->refuse_when_saturated();
  auto& accounts = ctx.stores.accounts;
  const auto client = client_key(ctx.config, req);
  const auto email_hash = email_key(ctx.config, email);
  const auto account = accounts.find_by_email(email);
  const std::optional<std::uint64_t> account_id =
      account ? std::optional<std::uint64_t>(account->id) : std::nullopt;

  // The attempt is written (committed) before any password is checked, then counted with every
  // other: concurrent guesses see each other, so no more than the limit get to the hash. Unknown
  // e-mails are throttled like known ones (keyed by the e-mail, not the account).
  Reservation reservation(accounts, accounts.reserve_sign_in(account_id, client, email_hash));
  const auto ew = accounts.email_failures(email_hash, kThrottleWindowSeconds);
  const auto cw = accounts.client_failures(client, kThrottleWindowSeconds);
  if (const auto refused = sign_in_refusal(ew, cw)) throw too_many(*refused, accounts.now());

  // An unknown email costs the same scrypt work as a wrong password (and an old, weaker hash is
  // padded to today's cost).
  const bool good = ctx.config.passwords->verify(
      password, account ? account->password_hash : ctx.config.dummy_password_hash);
  if (!account || !good) {
    reservation.kept();
    ctx.stores.tx.run([&] {
      ctx.stores.tx.audit({account_id, "session.sign_in_failed",
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
                                 ? ctx.config.passwords->hash(password)
                                 : std::string{};
  ctx.stores.tx.run([&] {
    if (!rehash.empty()) accounts.set_password_hash(account->id, rehash);
    accounts.create_session(hash, account->id, kSessionLifetimeSeconds);
    accounts.record_sign_in(account->id, email_hash);
    ctx.stores.tx.audit({account->id, "session.sign_in", "account:" + std::to_string(account->id),
                         "", audit_email(account->email)});
  });
  const auto fresh = accounts.find(account->id).value_or(*account);
  const std::int64_t now = accounts.now();
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
