#include "fcgi-app/admin_setup.h"

#include <optional>
#include <string>

#include "lib/crypto/dummy_password_hash.h"
#include "lib/crypto/sha256.h"

namespace placard::fcgi {

admin::AdminConfig make_admin_config(const config::ServerConfig& cfg) {
  const auto key = crypto::sha256("placard client address key\n" + cfg.token_keys);
  admin::AdminConfig c{std::string(reinterpret_cast<const char*>(key.data()), key.size()),
                       std::string(crypto::dummy_password_hash()),
                       std::nullopt,
                       {},
                       {}};
  c.limits = cfg.auth;
  // Per-client limits of impressions and clicks: the secret their daily keys are derived from.
  const auto day_secret = crypto::sha256("placard client day secret\n" + cfg.token_keys);
  c.client_day_secret.assign(reinterpret_cast<const char*>(day_secret.data()), day_secret.size());
  c.trusted_proxies = http::TrustedProxies::parse(cfg.trusted_proxies);
  c.public_origin = cfg.public_origin;
  c.base_path = cfg.base_path;
  if (!cfg.credentials_key.empty()) {
    c.credential_keys = crypto::CredentialKeys::parse(cfg.credentials_key);
  }
  return c;
}

}  // namespace placard::fcgi
