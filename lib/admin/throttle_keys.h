#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/admin/context.h"
#include "lib/store/account_store.h"

namespace placard::admin {

// The e-mail as the throttle keys it: surrounding white space removed, ASCII letters in lower
// case (the accounts table compares e-mails case-insensitively).
std::string normalise_email(std::string_view email);

// Keyed hashes (HMAC-SHA-256 under AdminConfig::client_key) of the request's client (its
// address, an IPv6 one reduced to its /64: http::client_key_text) and of a normalised e-mail.
db::TokenHash client_key(const AdminConfig& config, const http::Request& request);
db::TokenHash email_key(const AdminConfig& config, std::string_view email);

// Throttling of sign-ins (docs/hardening.md): `email` and `client` are the failures within the
// window of the e-mail named and of the client, each including the attempt's own reservation.
// Refused (the window whose oldest row sets Retry-After): past kMaxFailuresPerClient for the
// client; past kMaxFailuresPerAccount for the e-mail when the client itself has failed within
// the window (a client without failures still gets its try, so nobody can lock an
// administrator out from elsewhere). nullopt: go on and check the password.
std::optional<db::FailureWindow> sign_in_refusal(const db::FailureWindow& email,
                                                 const db::FailureWindow& client);

// Registration limits (AuthLimits): the window that refuses one more registration, or nullopt.
// `client` and `all` include the attempt's own reservation.
std::optional<db::FailureWindow> registration_refusal(const config::AuthLimits& limits,
                                                      const db::FailureWindow& client,
                                                      const db::FailureWindow& all);

}  // namespace placard::admin
