#include "lib/admin/account_handlers.h"

#include <algorithm>

#include "lib/admin/account_json.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/admin/password_work.h"
#include "lib/admin/throttle_keys.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/util/parse_int.h"

namespace placard::admin {

bool plausible_email(std::string_view e) {
  const auto at = e.find('@');
  if (e.size() < 3 || e.size() > 254 || at == std::string_view::npos || at == 0 ||
      at + 1 >= e.size() || e.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  for (const char c : e) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == ',' ||
        c == ';') {
      return false;
    }
  }
  return true;
}

std::optional<std::uint64_t> parse_id(std::string_view text) {
  return util::parse_canonical_in<std::uint64_t>(text, 1, UINT64_MAX);
}

namespace {

db::Account require_account(db::AccountStore& accounts, std::string_view id_text) {
  const auto id = parse_id(id_text);
  if (!id) throw http::not_found();
  auto a = accounts.find(*id);
  if (!a) throw http::not_found();
  return *a;
}

http::ApiError too_many_registrations(const std::string& message, std::int64_t retry_after) {
  http::ApiError e{429, "too_many_attempts", message};
  e.with_header("Retry-After", std::to_string(std::max<std::int64_t>(1, retry_after)));
  return e;
}

// The registration limits, checked before the password is hashed (docs/hardening.md): pending
// accounts at most, registrations per client and in total within the hour. The attempt is
// written first and counted with every other, so concurrent registrations see each other; it
// is deleted again when refused (or when no hash slot is free), and kept otherwise (a taken
// e-mail counts too). Then the hash, under a slot of PasswordWork (503 when none).
std::string limited_hash(const http::Request& req, AdminContext& ctx, const std::string& password) {
  if (ctx.config.passwords == nullptr)
    throw http::service_unavailable("Registration is unavailable");
  ctx.config.passwords->refuse_when_saturated();
  auto& accounts = ctx.stores.accounts;
  const auto& limits = ctx.config.limits;
  if (accounts.pending_accounts() >= static_cast<std::uint64_t>(limits.max_pending_accounts)) {
    throw too_many_registrations("Too many accounts wait for approval: try again later",
                                 kRegistrationWindowSeconds);
  }
  const auto client = client_key(ctx.config, req);
  const auto reservation = accounts.reserve_registration(client);
  try {
    const auto mine = accounts.client_registrations(client, kRegistrationWindowSeconds);
    const auto all = accounts.all_registrations(kRegistrationWindowSeconds);
    if (const auto refused = registration_refusal(limits, mine, all)) {
      throw too_many_registrations(
          "Too many registrations: try again later",
          refused->oldest_at + kRegistrationWindowSeconds - accounts.now());
    }
    return ctx.config.passwords->hash(password);
  } catch (...) {
    accounts.release_registration(reservation);
    throw;
  }
}

http::Response register_account(http::Request& req, AdminContext& ctx) {
  const Body body(req, {"email", "password"});
  const std::string email = body.string("email", 3, 254);
  if (!plausible_email(email)) throw http::invalid_field("email", "email is not an email address");
  const std::string password = body.string("password", 0, kMaxPasswordBytes);
  if (utf8_length(password) < kMinPasswordChars) {
    throw http::invalid_field("password", "The password must have at least 12 characters");
  }
  if (password.size() > kMaxPasswordBytes) {
    throw http::invalid_field("password", "The password is too long");
  }
  const std::string hash = limited_hash(req, ctx, password);
  std::optional<db::Account> made;
  try {
    ctx.stores.tx.run([&] {
      const auto id = ctx.stores.accounts.insert_pending(email, hash);
      made = ctx.stores.accounts.find(id);
      if (!made) throw std::runtime_error("the new account cannot be read back");
      ctx.stores.tx.audit({std::nullopt, "account.register", "account:" + std::to_string(id), "",
                           account_json(*made)});
    });
  } catch (const db::DuplicateKey&) {
    throw http::ApiError{409, "conflict", "An account with this email exists", "email"};
  }
  return created(account_json(*made), "/accounts/" + std::to_string(made->id));
}

// approve or revoke: one transaction with its audit row (before and after).
http::Response change_status(http::Request& req, AdminContext& ctx, const Actor& actor,
                             bool approve) {
  // These writes take no body; a body, if any, must still be a JSON object without fields.
  if (req.content_length.value_or(0) > 0 || !req.body.empty()) {
    const Body body(req, {});
  }
  std::optional<db::Account> after;
  ctx.stores.tx.run([&] {
    const db::Account before = require_account(ctx.stores.accounts, req.param("id"));
    if (!approve && before.id == actor.account.id) {
      throw http::ApiError{409, "conflict", "An account cannot revoke itself"};
    }
    if (approve) {
      ctx.stores.accounts.approve(before.id, actor.account.id);
    } else {
      ctx.stores.accounts.revoke(before.id);
      ctx.stores.accounts.delete_sessions(before.id);  // none may outlive the revocation
    }
    after = ctx.stores.accounts.find(before.id);
    ctx.stores.tx.audit({actor.account.id, approve ? "account.approve" : "account.revoke",
                         "account:" + std::to_string(before.id), account_json(before),
                         account_json(*after)});
  });
  return ok(account_json(*after));
}

}  // namespace

void add_account_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.open_write("POST", "/accounts",
                   [&ctx](http::Request& req) { return register_account(req, ctx); });

  admin.read("/accounts", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"status"});
    const auto status = p.filter("status");
    if (status && *status != "pending" && *status != "approved" && *status != "revoked") {
      throw http::invalid_field("status", "status must be pending, approved or revoked");
    }
    return page_response(ctx.stores.accounts.list(status, p.limit, p.offset), p,
                         [](const auto& item) { return account_json(item); });
  });

  admin.read("/accounts/:id", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(account_json(require_account(ctx.stores.accounts, req.param("id"))));
  });

  admin.write("POST", "/accounts/:id/approve", [&ctx](http::Request& req, const Actor& actor) {
    return change_status(req, ctx, actor, true);
  });
  admin.write("POST", "/accounts/:id/revoke", [&ctx](http::Request& req, const Actor& actor) {
    return change_status(req, ctx, actor, false);
  });
}

}  // namespace placard::admin
