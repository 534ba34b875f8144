#include "lib/store/account_commands.h"

#include <iostream>
#include <stdexcept>

#include "lib/db/admin_db.h"
#include "lib/db/errors.h"
#include "lib/json/flat_object.h"
#include "lib/store/mysql_account_store.h"

namespace placard::db {

namespace {

// The account as placardctl's audit rows show it: id (a string, as the admin API writes ids),
// email, status.
std::string audit_json(const Account& a) {
  return json::FlatObject()
      .add("id", std::to_string(a.id))
      .add("email", a.email)
      .add("status", a.status)
      .str();
}

AdminDb operator_db(MysqlSession& session) {
  return AdminDb(session, [](const std::string& problem) { std::cerr << problem << "\n"; });
}

AuditRecord audit_record(const std::string& action, const std::optional<Account>& before,
                         const Account& after) {
  return {std::nullopt, action, "account:" + std::to_string(after.id),
          before ? audit_json(*before) : "", audit_json(after)};
}

// approve or revoke the account with that email through the store's one write path.
std::optional<StatusChange> change_status(MysqlSession& session, const std::string& email,
                                          bool approve) {
  AdminDb db = operator_db(session);
  MysqlAccountStore accounts(db);
  std::optional<StatusChange> change;
  db.run([&] {
    change.reset();
    const auto before = accounts.find_by_email(email);
    if (!before) return;
    // Sessions go even when the status already says revoked: none may outlive a revocation.
    if (!approve) accounts.delete_sessions(before->id);
    const char* status = approve ? "approved" : "revoked";
    if (before->status == status) {
      change = StatusChange{before->id, false};
      return;
    }
    if (approve) {
      accounts.approve(before->id, std::nullopt);
    } else {
      accounts.revoke(before->id);
    }
    const auto after = accounts.find(before->id);
    if (!after) throw std::runtime_error("the account cannot be read back");
    db.audit(audit_record(approve ? "account.approve" : "account.revoke", before, *after));
    change = StatusChange{before->id, true};
  });
  return change;
}

}  // namespace

std::uint64_t create_account(MysqlSession& session, const std::string& email,
                             const std::string& password_hash, bool approved) {
  AdminDb db = operator_db(session);
  MysqlAccountStore accounts(db);
  std::uint64_t id = 0;
  try {
    db.run([&] {
      id = accounts.insert_pending(email, password_hash);
      if (approved) accounts.approve(id, std::nullopt);
      const auto made = accounts.find(id);
      if (!made) throw std::runtime_error("the new account cannot be read back");
      db.audit(audit_record(approved ? "account.create_approved" : "account.create", std::nullopt,
                            *made));
    });
  } catch (const DuplicateKey&) {
    throw std::runtime_error("an account with that email exists");
  }
  return id;
}

std::optional<StatusChange> approve_account(MysqlSession& session, const std::string& email) {
  return change_status(session, email, true);
}

std::optional<StatusChange> revoke_account(MysqlSession& session, const std::string& email) {
  return change_status(session, email, false);
}

}  // namespace placard::db
