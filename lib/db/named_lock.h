#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs mysql_session.h).
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// A MySQL named lock (GET_LOCK) for one job at a time across every worker and host, released
// however the job ends (and by the server if the connection dies).
class NamedLock {
 public:
  // Waits up to timeout_seconds (0: not at all); held() tells whether it was taken.
  NamedLock(MysqlSession& session, std::string name, int timeout_seconds = 0);
  ~NamedLock();
  NamedLock(const NamedLock&) = delete;
  NamedLock& operator=(const NamedLock&) = delete;
  bool held() const { return held_; }

 private:
  MysqlSession& session_;
  std::string name_;
  bool held_ = false;
};

}  // namespace placard::db
