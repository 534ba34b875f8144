#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "lib/api/services.h"
#include "lib/config/auth_limits.h"
#include "lib/crypto/aes_gcm.h"
#include "lib/db/admin_tx.h"
#include "lib/http/client_address.h"
#include "lib/stats/stats_store.h"
#include "lib/store/account_store.h"
#include "lib/store/audit_store.h"
#include "lib/store/catalog_admin_store.h"
#include "lib/store/network_store.h"
#include "lib/store/offer_admin_store.h"
#include "lib/store/settings_store.h"

namespace placard::network {
class SyncLauncher;
}

namespace placard::admin {

class PasswordWork;

// Built once in main, shared by every request thread, read-only.
struct AdminConfig {
  std::string client_key;           // HMAC key: client addresses are kept only as keyed hashes
  std::string dummy_password_hash;  // verified against for an unknown email (same time spent)
  std::optional<crypto::CredentialKeys> credential_keys;  // credentials.key; none when unset
  http::TrustedProxies trusted_proxies;  // whose X-Forwarded-For names the client (config file)
  std::string client_day_secret;  // impressions and clicks: daily keys of client hashes from it
  network::SyncLauncher* sync = nullptr;  // starts network syncs (POST /network/sync); none: 503
  config::AuthLimits limits{};            // registration limits (registration.* in the config)
  PasswordWork* passwords = nullptr;      // every password hash and check; none: 503
  // The config file's public_origin (normalised; empty: admin writes refused unless the database
  // still holds the older publicOrigin setting) and base_path (the session cookie's Path).
  std::string public_origin{};
  std::string base_path{};
};

// One request thread's stores (each on the thread's own database connection).
struct AdminStores {
  db::AdminTx& tx;
  db::AccountStore& accounts;
  db::SettingsStore& settings;
  db::CountryStore& countries;
  db::CategoryStore& categories;
  db::PlacementStore& placements;
  db::OfferAdminStore& offers;
  db::AuditStore& audit;
  db::StatsStore& stats;
  db::NetworkStore& network;
};

// Everything an admin handler may use.
struct AdminContext {
  const api::SharedServices& shared;
  const AdminConfig& config;
  AdminStores stores;
};

// The account a request is signed in as.
struct Actor {
  db::Account account;
  std::int64_t expires_at = 0;  // when the session ends if it stays in use (absolute end)
};

inline constexpr std::string_view kAdminPrefix = "/admin/api/v1";

}  // namespace placard::admin
