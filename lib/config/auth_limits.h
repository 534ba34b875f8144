#pragma once
#include <string>

namespace placard::config {

// Limits of registration and of password hashing (docs/hardening.md, "Accounts and sign-in").
// Config keys: registration.per_client_per_hour, registration.per_hour, registration.max_pending,
// registration.pending_days, password_hash.concurrency, password_hash.queue,
// password_hash.wait_ms.
struct AuthLimits {
  int registrations_per_client_per_hour = 5;  // one client (an IPv6 /64), any outcome but 400
  int registrations_per_hour = 30;            // every client together
  int max_pending_accounts = 50;              // registrations wait while this many are pending
  int pending_days = 14;     // unapproved accounts older than this are removed (retention job)
  int hash_concurrency = 1;  // password hashes at once per worker process
  int hash_queue = 2;        // requests that may wait for a hash slot (more: 503 at once)
  int hash_wait_ms = 1000;   // how long one of them waits before 503
};

// Sets `key` when it is one of the keys above (true), after checking its range (ConfigError);
// false for any other key.
bool set_auth_limit(AuthLimits& limits, const std::string& key, const std::string& value);

// The keys with their values, as config file lines.
std::string render_auth_limits(const AuthLimits& limits);

}  // namespace placard::config
