#pragma once

namespace placard::config {

// Limits of registration and of password hashing (docs/hardening.md, "Accounts and sign-in").
// Config keys registration.* and password_hash.* (their ranges: lib/config/settings_table.cpp).
struct AuthLimits {
  int registrations_per_client_per_hour = 5;  // one client (an IPv6 /64), any outcome but 400
  int registrations_per_hour = 30;            // every client together
  int max_pending_accounts = 50;              // registrations wait while this many are pending
  int pending_days = 14;     // unapproved accounts older than this are removed (retention job)
  int hash_concurrency = 1;  // password hashes at once per worker process
  int hash_queue = 2;        // requests that may wait for a hash slot (more: 503 at once)
  int hash_wait_ms = 1000;   // how long one of them waits before 503
};

}  // namespace placard::config
