#include "lib/store/mysql_account_store.h"

#include "lib/db/paged_query.h"

#include <sstream>

namespace placard::db {

namespace {

constexpr const char* kAccountColumns =
    "id, email, status, password_hash, UNIX_TIMESTAMP(created_at), UNIX_TIMESTAMP(approved_at), "
    "UNIX_TIMESTAMP(last_sign_in_at)";

Account read_account(sql::ResultSet& rs, int first = 1) {
  Account a;
  a.id = rs.getUInt64(first);
  a.email = rs.getString(first + 1).asStdString();
  a.status = rs.getString(first + 2).asStdString();
  a.password_hash = rs.getString(first + 3).asStdString();
  a.created_at = rs.getInt64(first + 4);
  if (!rs.isNull(first + 5)) a.approved_at = rs.getInt64(first + 5);
  if (!rs.isNull(first + 6)) a.last_sign_in_at = rs.getInt64(first + 6);
  return a;
}

std::string as_bytes(const TokenHash& h) {
  return {reinterpret_cast<const char*>(h.data()), h.size()};
}

// A BINARY parameter bound through a stream the statement reads at execute time.
void set_binary(sql::PreparedStatement& st, unsigned index, const std::string& bytes,
                std::istringstream& holder) {
  holder.str(bytes);
  st.setBlob(index, &holder);
}

FailureWindow read_window(sql::ResultSet& rs) {
  FailureWindow w;
  if (rs.next()) {
    w.count = rs.getInt(1);
    w.oldest_at = rs.isNull(2) ? 0 : rs.getInt64(2);
  }
  return w;
}

// The tables of attempts the limits count (one row per attempt, committed at once): the
// reservation, its release and the count within a window are the same statements on each.
struct AttemptTable {
  const char* name;
  const char* at;  // the row's time column
};
constexpr AttemptTable kSignInFailures{"sign_in_failures", "failed_at"};
constexpr AttemptTable kRegistrationAttempts{"registration_attempts", "attempted_at"};

std::uint64_t last_insert_id(MysqlSession& s) {
  const auto rs = query(s.prepared("SELECT LAST_INSERT_ID()"));
  return rs->next() ? rs->getUInt64(1) : 0;
}

// Rows older than a day count for nothing: each reservation sweeps a few.
void sweep_old_attempts(MysqlSession& s, AttemptTable t) {
  s.prepared(std::string("DELETE FROM ") + t.name + " WHERE " + t.at +
             " < UTC_TIMESTAMP() - INTERVAL 1 DAY LIMIT 100")
      .executeUpdate();
}

void release_attempt(MysqlSession& s, AttemptTable t, std::uint64_t reservation) {
  auto& st = s.prepared(std::string("DELETE FROM ") + t.name + " WHERE id = ?");
  st.setUInt64(1, reservation);
  st.executeUpdate();
}

// The attempts within the window: those whose `hash_column` is `hash`, or all (no column).
FailureWindow attempts_within(MysqlSession& s, AttemptTable t, const char* hash_column,
                              const TokenHash* hash, int window_seconds) {
  std::string sql =
      std::string("SELECT COUNT(*), UNIX_TIMESTAMP(MIN(") + t.at + ")) FROM " + t.name + " WHERE ";
  if (hash_column != nullptr) sql += std::string(hash_column) + " = ? AND ";
  sql += std::string(t.at) + " > UTC_TIMESTAMP() - INTERVAL ? SECOND";
  auto& st = s.prepared(sql);
  unsigned i = 1;
  std::istringstream holder;
  if (hash_column != nullptr) set_binary(st, i++, as_bytes(*hash), holder);
  st.setInt(i, window_seconds);
  return read_window(*query(st));
}

}  // namespace

std::optional<Account> MysqlAccountStore::find_by_email(const std::string& email) {
  return db_.call([&](MysqlSession& s) -> std::optional<Account> {
    auto& st =
        s.prepared(std::string("SELECT ") + kAccountColumns + " FROM accounts WHERE email = ?");
    st.setString(1, email);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_account(*rs);
  });
}

std::optional<Account> MysqlAccountStore::find(std::uint64_t id) {
  return db_.call([&](MysqlSession& s) -> std::optional<Account> {
    auto& st = s.prepared(std::string("SELECT ") + kAccountColumns + " FROM accounts WHERE id = ?");
    st.setUInt64(1, id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_account(*rs);
  });
}

std::uint64_t MysqlAccountStore::insert_pending(const std::string& email,
                                                const std::string& password_hash) {
  return db_.call([&](MysqlSession& s) -> std::uint64_t {
    auto& st =
        s.prepared("INSERT INTO accounts (email, password_hash, status) VALUES (?, ?, 'pending')");
    st.setString(1, email);
    st.setString(2, password_hash);
    st.executeUpdate();
    return last_insert_id(s);
  });
}

void MysqlAccountStore::approve(std::uint64_t id, std::optional<std::uint64_t> approved_by) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE accounts SET status = 'approved', approved_at = UTC_TIMESTAMP(), approved_by = ?, "
        "revoked_at = NULL WHERE id = ? AND status <> 'approved'");
    if (approved_by) {
      st.setUInt64(1, *approved_by);
    } else {
      st.setNull(1, sql::DataType::BIGINT);
    }
    st.setUInt64(2, id);
    st.executeUpdate();
  });
}

void MysqlAccountStore::revoke(std::uint64_t id) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE accounts SET status = 'revoked', revoked_at = UTC_TIMESTAMP() "
        "WHERE id = ? AND status <> 'revoked'");
    st.setUInt64(1, id);
    st.executeUpdate();
  });
}

void MysqlAccountStore::delete_sessions(std::uint64_t account_id) {
  db_.call([&](MysqlSession& s) {
    auto& del = s.prepared("DELETE FROM sessions WHERE account_id = ?");
    del.setUInt64(1, account_id);
    del.executeUpdate();
  });
}

void MysqlAccountStore::set_password_hash(std::uint64_t id, const std::string& password_hash) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("UPDATE accounts SET password_hash = ? WHERE id = ?");
    st.setString(1, password_hash);
    st.setUInt64(2, id);
    st.executeUpdate();
  });
}

AccountPage MysqlAccountStore::list(const std::optional<std::string>& status, int limit,
                                    std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    SqlArgs args;
    if (status) args.add(*status);
    const std::string where = status ? " WHERE status = ?" : "";
    return read_page<AccountPage>(
        s, "SELECT COUNT(*) FROM accounts" + where,
        std::string("SELECT ") + kAccountColumns + " FROM accounts" + where + " ORDER BY id", args,
        limit, offset, [](sql::ResultSet& rs) { return read_account(rs); });
  });
}

void MysqlAccountStore::create_session(const TokenHash& hash, std::uint64_t account_id,
                                       int lifetime_seconds) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, expires_at) "
        "VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP() + INTERVAL ? SECOND)");
    std::istringstream holder;
    set_binary(st, 1, as_bytes(hash), holder);
    st.setUInt64(2, account_id);
    st.setInt(3, lifetime_seconds);
    st.executeUpdate();
  });
}

std::optional<LiveSession> MysqlAccountStore::use_session(const TokenHash& hash, int idle_seconds) {
  return db_.call([&](MysqlSession& s) -> std::optional<LiveSession> {
    auto& st = s.prepared(
        "SELECT s.id, UNIX_TIMESTAMP(s.expires_at), a.id, a.email, a.status, a.password_hash, "
        "UNIX_TIMESTAMP(a.created_at), UNIX_TIMESTAMP(a.approved_at), "
        "UNIX_TIMESTAMP(a.last_sign_in_at) "
        "FROM sessions s JOIN accounts a ON a.id = s.account_id "
        "WHERE s.token_hash = ? AND s.expires_at > UTC_TIMESTAMP() "
        "AND s.last_seen_at > UTC_TIMESTAMP() - INTERVAL ? SECOND");
    std::istringstream holder;
    set_binary(st, 1, as_bytes(hash), holder);
    st.setInt(2, idle_seconds);
    LiveSession live;
    {
      const auto rs = query(st);
      if (!rs->next()) return std::nullopt;
      live.session_id = rs->getUInt64(1);
      live.expires_at = rs->getInt64(2);
      live.account = read_account(*rs, 3);
    }
    auto& touch = s.prepared("UPDATE sessions SET last_seen_at = UTC_TIMESTAMP() WHERE id = ?");
    touch.setUInt64(1, live.session_id);
    touch.executeUpdate();
    return live;
  });
}

void MysqlAccountStore::delete_session(const TokenHash& hash) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("DELETE FROM sessions WHERE token_hash = ?");
    std::istringstream holder;
    set_binary(st, 1, as_bytes(hash), holder);
    st.executeUpdate();
  });
}

std::int64_t MysqlAccountStore::now() {
  return db_.call([](MysqlSession& s) -> std::int64_t {
    const auto rs = query(s.prepared("SELECT UNIX_TIMESTAMP(UTC_TIMESTAMP())"));
    return rs->next() ? rs->getInt64(1) : 0;
  });
}

void MysqlAccountStore::record_sign_in(std::uint64_t account_id, const TokenHash& email) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("UPDATE accounts SET last_sign_in_at = UTC_TIMESTAMP() WHERE id = ?");
    st.setUInt64(1, account_id);
    st.executeUpdate();
    auto& del = s.prepared("DELETE FROM sign_in_failures WHERE account_id = ? OR email_hash = ?");
    del.setUInt64(1, account_id);
    std::istringstream holder;
    set_binary(del, 2, as_bytes(email), holder);
    del.executeUpdate();
    // Sessions past their end are of no use to anyone: sign-ins sweep them.
    s.prepared("DELETE FROM sessions WHERE expires_at < UTC_TIMESTAMP() LIMIT 100").executeUpdate();
  });
}

std::uint64_t MysqlAccountStore::reserve_sign_in(std::optional<std::uint64_t> account_id,
                                                 const TokenHash& client, const TokenHash& email) {
  return db_.call([&](MysqlSession& s) -> std::uint64_t {
    sweep_old_attempts(s, kSignInFailures);
    auto& st = s.prepared(
        "INSERT INTO sign_in_failures (account_id, client_hash, email_hash) VALUES (?, ?, ?)");
    if (account_id) {
      st.setUInt64(1, *account_id);
    } else {
      st.setNull(1, sql::DataType::BIGINT);
    }
    std::istringstream client_holder;
    std::istringstream email_holder;
    set_binary(st, 2, as_bytes(client), client_holder);
    set_binary(st, 3, as_bytes(email), email_holder);
    st.executeUpdate();
    return last_insert_id(s);
  });
}

void MysqlAccountStore::release_sign_in(std::uint64_t reservation) {
  db_.call([&](MysqlSession& s) { release_attempt(s, kSignInFailures, reservation); });
}

FailureWindow MysqlAccountStore::email_failures(const TokenHash& email, int window_seconds) {
  return db_.call([&](MysqlSession& s) {
    return attempts_within(s, kSignInFailures, "email_hash", &email, window_seconds);
  });
}

FailureWindow MysqlAccountStore::client_failures(const TokenHash& client, int window_seconds) {
  return db_.call([&](MysqlSession& s) {
    return attempts_within(s, kSignInFailures, "client_hash", &client, window_seconds);
  });
}

std::uint64_t MysqlAccountStore::reserve_registration(const TokenHash& client) {
  return db_.call([&](MysqlSession& s) -> std::uint64_t {
    sweep_old_attempts(s, kRegistrationAttempts);
    auto& st = s.prepared("INSERT INTO registration_attempts (client_hash) VALUES (?)");
    std::istringstream holder;
    set_binary(st, 1, as_bytes(client), holder);
    st.executeUpdate();
    return last_insert_id(s);
  });
}

void MysqlAccountStore::release_registration(std::uint64_t reservation) {
  db_.call([&](MysqlSession& s) { release_attempt(s, kRegistrationAttempts, reservation); });
}

FailureWindow MysqlAccountStore::client_registrations(const TokenHash& client, int window_seconds) {
  return db_.call([&](MysqlSession& s) {
    return attempts_within(s, kRegistrationAttempts, "client_hash", &client, window_seconds);
  });
}

FailureWindow MysqlAccountStore::all_registrations(int window_seconds) {
  return db_.call([&](MysqlSession& s) {
    return attempts_within(s, kRegistrationAttempts, nullptr, nullptr, window_seconds);
  });
}

std::uint64_t MysqlAccountStore::pending_accounts() {
  return db_.call([](MysqlSession& s) -> std::uint64_t {
    const auto rs = query(s.prepared("SELECT COUNT(*) FROM accounts WHERE status = 'pending'"));
    return rs->next() ? rs->getUInt64(1) : 0;
  });
}

}  // namespace placard::db
