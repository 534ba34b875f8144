#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// Operator-side account writes (placardctl), each in one AdminDb transaction over
// MysqlAccountStore, the admin API's write path, with its audit row through AdminTx::audit
// (account_id NULL: no signed-in account; target "account:<id>"; before/after JSON of id, email
// and status, never the password hash). Throw std::runtime_error with a clear message.

std::uint64_t create_account(MysqlSession& session, const std::string& email,
                             const std::string& password_hash, bool approved);

// What a status change found and did.
struct StatusChange {
  std::uint64_t id = 0;
  bool changed = false;  // false: the account already had that status (no write, no audit row)
};

// Approves the account (status approved, approved_at kept or set, revoked_at cleared).
// nullopt when no account has that email.
std::optional<StatusChange> approve_account(MysqlSession& session, const std::string& email);

// Revokes the account and deletes its sessions: its admin sessions end at once.
// nullopt when no account has that email.
std::optional<StatusChange> revoke_account(MysqlSession& session, const std::string& email);

}  // namespace placard::db
