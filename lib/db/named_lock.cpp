#include "lib/db/named_lock.h"

#include "lib/crypto/random.h"

namespace placard::db {

namespace {

constexpr int kNoSuchTable = 1146;
// The server this session is on: Galera nodes share server_id, and may share a host name.
constexpr const char* kThisNode = "MD5(CONCAT_WS(':', @@hostname, @@port, @@datadir))";

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

NamedLock::NamedLock(MysqlSession& session, std::string name, int timeout_seconds,
                     int lease_seconds)
    : session_(session),
      name_(std::move(name)),
      lease_seconds_(lease_seconds),
      holder_(hex(crypto::random_bytes(16))) {
  auto& st = session_.prepared("SELECT GET_LOCK(?, ?)");
  st.setString(1, name_);
  st.setInt(2, timeout_seconds);
  const auto rs = query(st);
  if (!(rs->next() && !rs->isNull(1) && rs->getInt(1) == 1)) return;
  held_ = true;
  try {
    if (take_lease()) return;
  } catch (...) {
    held_ = false;
    session_.reset();  // the named lock goes with the connection
    throw;
  }
  held_ = false;
  auto& release = session_.prepared("DO RELEASE_LOCK(?)");
  release.setString(1, name_);
  release.execute();
}

bool NamedLock::take_lease() {
  try {
    // The assignments run left to right: the holder changes only on an expired row or on a row
    // of this server (its holder held GET_LOCK here as long as it lived, and we hold it now: it
    // is gone), and node and end move only when the holder is (now) ours. Autocommit: committed
    // (certified, in Galera) right here.
    auto& take = session_.prepared(
        "INSERT INTO job_leases (name, holder, node, expires_at) VALUES (?, ?, " +
        std::string(kThisNode) +
        ", UTC_TIMESTAMP(3) + INTERVAL ? SECOND) ON DUPLICATE KEY UPDATE holder = "
        "IF(expires_at < UTC_TIMESTAMP(3) OR node = VALUES(node), VALUES(holder), holder), "
        "node = IF(holder = VALUES(holder), VALUES(node), node), expires_at = IF(holder = "
        "VALUES(holder), VALUES(expires_at), expires_at)");
    take.setString(1, name_);
    take.setString(2, holder_);
    take.setInt(3, lease_seconds_);
    take.executeUpdate();
    auto& check = session_.prepared("SELECT holder = ? FROM job_leases WHERE name = ?");
    check.setString(1, holder_);
    check.setString(2, name_);
    const auto rs = query(check);
    lease_ = rs->next() && rs->getInt(1) == 1;
    return lease_;
  } catch (const sql::SQLException& e) {
    if (e.getErrorCode() == kNoSuchTable) return true;  // placardctl migrate, before 0013
    // Certification failure or deadlock: another taker won this moment.
    if (MysqlSession::is_transient_error(e.getErrorCode())) return false;
    throw;
  }
}

bool NamedLock::renew() {
  if (!lease_) return held_;
  auto& st = session_.prepared(
      "UPDATE job_leases SET expires_at = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE name = ? "
      "AND holder = ?");
  st.setInt(1, lease_seconds_);
  st.setString(2, name_);
  st.setString(3, holder_);
  if (st.executeUpdate() == 1) return true;
  lease_ = false;
  return false;
}

void NamedLock::release_lease() {
  for (int attempt = 0; lease_ && attempt < 3; ++attempt) {
    try {
      auto& st = session_.prepared("DELETE FROM job_leases WHERE name = ? AND holder = ?");
      st.setString(1, name_);
      st.setString(2, holder_);
      st.executeUpdate();
      lease_ = false;
    } catch (const sql::SQLException& e) {
      // A conflict is retried; anything else leaves the row to expire.
      if (!MysqlSession::is_transient_error(e.getErrorCode())) return;
    }
  }
}

NamedLock::~NamedLock() {
  if (!held_) return;
  try {
    release_lease();
    auto& st = session_.prepared("DO RELEASE_LOCK(?)");
    st.setString(1, name_);
    st.execute();
  } catch (const std::exception&) {
    // The named lock ends with the connection anyway; the lease expires.
  }
}

}  // namespace placard::db
