#pragma once
#include "lib/db/admin_db.h"
#include "lib/store/account_store.h"

namespace placard::db {

class MysqlAccountStore : public AccountStore {
 public:
  explicit MysqlAccountStore(AdminDb& db) : db_(db) {}

  std::optional<Account> find_by_email(const std::string& email) override;
  std::optional<Account> find(std::uint64_t id) override;
  std::uint64_t insert_pending(const std::string& email, const std::string& password_hash) override;
  void approve(std::uint64_t id, std::optional<std::uint64_t> approved_by) override;
  void revoke(std::uint64_t id) override;
  void set_password_hash(std::uint64_t id, const std::string& password_hash) override;
  AccountPage list(const std::optional<std::string>& status, int limit,
                   std::uint64_t offset) override;

  void create_session(const TokenHash& hash, std::uint64_t account_id,
                      int lifetime_seconds) override;
  std::optional<LiveSession> use_session(const TokenHash& hash, int idle_seconds) override;
  void delete_session(const TokenHash& hash) override;
  void delete_sessions(std::uint64_t account_id) override;
  std::int64_t now() override;

  void record_sign_in(std::uint64_t account_id, const TokenHash& email) override;
  std::uint64_t reserve_sign_in(std::optional<std::uint64_t> account_id, const TokenHash& client,
                                const TokenHash& email) override;
  void release_sign_in(std::uint64_t reservation) override;
  FailureWindow email_failures(const TokenHash& email, int window_seconds) override;
  FailureWindow client_failures(const TokenHash& client, int window_seconds) override;

  std::uint64_t reserve_registration(const TokenHash& client) override;
  void release_registration(std::uint64_t reservation) override;
  FailureWindow client_registrations(const TokenHash& client, int window_seconds) override;
  FailureWindow all_registrations(int window_seconds) override;
  std::uint64_t pending_accounts() override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
