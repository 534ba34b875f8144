#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs mysql_session.h).
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// One job at a time across every worker and host, released however the job ends: a MySQL named
// lock (GET_LOCK: waits, and the server frees it if the connection dies) AND a lease row in
// job_leases (sql/0013_job_leases.sql), because GET_LOCK is node-local in a Galera cluster. The
// lease is taken in one autocommit statement that only takes an expired or missing row; a
// certification conflict (another node took it at the same moment) means "not held". Held means
// both; the destructor gives both back. A lease left by a holder on this server is taken at once
// (it held the named lock here while it lived); one left on another Galera node by a holder
// that died expires after lease_seconds (renew() pushes the end for jobs that run longer).
// Before the table exists (placardctl migrate, up to 0013) the named lock alone decides.
class NamedLock {
 public:
  static constexpr int kDefaultLeaseSeconds = 300;
  // Waits up to timeout_seconds (0: not at all) for the named lock; held() tells whether both
  // were taken.
  NamedLock(MysqlSession& session, std::string name, int timeout_seconds = 0,
            int lease_seconds = kDefaultLeaseSeconds);
  ~NamedLock();
  NamedLock(const NamedLock&) = delete;
  NamedLock& operator=(const NamedLock&) = delete;
  bool held() const { return held_; }
  // The lease runs lease_seconds from now. False when it was lost (expired and taken).
  bool renew();

 private:
  bool take_lease();
  void release_lease();

  MysqlSession& session_;
  std::string name_;
  int lease_seconds_;
  std::string holder_;  // random, per lock object
  bool lease_ = false;  // a lease row is ours (false: none, or no table yet)
  bool held_ = false;
};

}  // namespace placard::db
