#include "lib/admin/throttle_keys.h"

#include "lib/admin/session_handlers.h"
#include "lib/crypto/hmac.h"
#include "lib/http/client_address.h"
#include "lib/util/trim.h"

namespace placard::admin {

std::string normalise_email(std::string_view email) {
  std::string out(util::trim(email));
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

db::TokenHash client_key(const AdminConfig& config, const http::Request& request) {
  return crypto::hmac_sha256(config.client_key, http::client_key_text(http::client_address(
                                                    request, config.trusted_proxies)));
}

db::TokenHash email_key(const AdminConfig& config, std::string_view email) {
  return crypto::hmac_sha256(config.client_key,
                             "placard sign-in e-mail\n" + normalise_email(email));
}

std::optional<db::FailureWindow> sign_in_refusal(const db::FailureWindow& email,
                                                 const db::FailureWindow& client) {
  if (client.count > kMaxFailuresPerClient) return client;
  if (email.count > kMaxFailuresPerAccount && client.count > 1) return email;
  return std::nullopt;
}

std::optional<db::FailureWindow> registration_refusal(const config::AuthLimits& limits,
                                                      const db::FailureWindow& client,
                                                      const db::FailureWindow& all) {
  if (client.count > limits.registrations_per_client_per_hour) return client;
  if (all.count > limits.registrations_per_hour) return all;
  return std::nullopt;
}

}  // namespace placard::admin
