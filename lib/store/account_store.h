#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placard::db {

using TokenHash = std::array<unsigned char, 32>;  // SHA-256 of a session token

struct Account {
  std::uint64_t id = 0;
  std::string email;
  std::string status;  // pending | approved | revoked
  std::string password_hash;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> approved_at;
  std::optional<std::int64_t> last_sign_in_at;
};

// A live session (not idle longer than allowed, not past its absolute end) and its account,
// whatever the account's status: whether that account may still use it is admin::require_session's
// call.
struct LiveSession {
  std::uint64_t session_id = 0;
  Account account;
  std::int64_t expires_at = 0;  // the absolute end
};

// Failed sign-ins within a window: how many, and when the oldest of them leaves the window.
struct FailureWindow {
  int count = 0;
  std::int64_t oldest_at = 0;
};

struct AccountPage {
  std::vector<Account> items;
  std::uint64_t total = 0;
};

// Accounts, sessions and sign-in failures. Times are Unix seconds (UTC); "now" is the database's.
class AccountStore {
 public:
  virtual ~AccountStore() = default;

  virtual std::optional<Account> find_by_email(const std::string& email) = 0;
  virtual std::optional<Account> find(std::uint64_t id) = 0;
  // A new pending account. Throws DuplicateKey when the email is taken.
  virtual std::uint64_t insert_pending(const std::string& email,
                                       const std::string& password_hash) = 0;
  // The one write path of a status change, for the admin API and placardctl alike (the caller
  // writes the audit row through AdminTx). approve: status approved, approved_at now, approved_by
  // the approving account (nullopt: an operator), revoked_at cleared; no change when approved.
  virtual void approve(std::uint64_t id, std::optional<std::uint64_t> approved_by) = 0;
  // Marks the account revoked (no change when it is). Its sessions stay until delete_sessions (the
  // revoke handler calls both in one transaction).
  virtual void revoke(std::uint64_t id) = 0;
  virtual void set_password_hash(std::uint64_t id, const std::string& password_hash) = 0;
  virtual AccountPage list(const std::optional<std::string>& status, int limit,
                           std::uint64_t offset) = 0;

  // Sessions.
  virtual void create_session(const TokenHash& hash, std::uint64_t account_id,
                              int lifetime_seconds) = 0;
  // The session of that token when it is live (used within idle_seconds, before its end), with
  // its account in any status; its last use becomes now.
  virtual std::optional<LiveSession> use_session(const TokenHash& hash, int idle_seconds) = 0;
  virtual void delete_session(const TokenHash& hash) = 0;
  virtual void delete_sessions(std::uint64_t account_id) = 0;  // every session of the account
  virtual std::int64_t now() = 0;

  // Sign-in bookkeeping. `email` is the keyed hash of the normalised e-mail the sign-in named.
  // last_sign_in_at; the failures of that account and e-mail cleared.
  virtual void record_sign_in(std::uint64_t account_id, const TokenHash& email) = 0;
  // A failure row written before the password is checked (committed at once, so that concurrent
  // attempts count it): it stays when the attempt fails, release_sign_in deletes it when the
  // attempt is refused or succeeds. Returns its id.
  virtual std::uint64_t reserve_sign_in(std::optional<std::uint64_t> account_id,
                                        const TokenHash& client, const TokenHash& email) = 0;
  virtual void release_sign_in(std::uint64_t reservation) = 0;
  virtual FailureWindow email_failures(const TokenHash& email, int window_seconds) = 0;
  virtual FailureWindow client_failures(const TokenHash& client, int window_seconds) = 0;

  // Registration limits: one row per registration let through, committed at once (as above).
  virtual std::uint64_t reserve_registration(const TokenHash& client) = 0;
  virtual void release_registration(std::uint64_t reservation) = 0;
  // Registrations within the window: of one client, and of every client.
  virtual FailureWindow client_registrations(const TokenHash& client, int window_seconds) = 0;
  virtual FailureWindow all_registrations(int window_seconds) = 0;
  virtual std::uint64_t pending_accounts() = 0;
};

}  // namespace placard::db
