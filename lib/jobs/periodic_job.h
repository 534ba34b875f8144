#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "lib/db/mysql_session.h"

namespace placard::db {

// A worker's background job: a thread with its own database session that runs `pass` first_delay
// after start, then every interval, until stop() (or the destructor), which ends the waits at
// once; a pass in progress sees stopping() and ends between two statements.
class PeriodicJob {
 public:
  using Pass = std::function<void(MysqlSession& session)>;

  PeriodicJob(ConnectionParams params, std::chrono::milliseconds first_delay,
              std::chrono::milliseconds interval, Pass pass);
  ~PeriodicJob();
  PeriodicJob(const PeriodicJob&) = delete;
  PeriodicJob& operator=(const PeriodicJob&) = delete;

  void stop();
  bool stopping();
  // Sleeps up to d; false when stopping (at once, or during the sleep).
  bool sleep_for(std::chrono::milliseconds d);

 private:
  void run();

  ConnectionParams params_;
  std::chrono::milliseconds first_delay_;
  std::chrono::milliseconds interval_;
  Pass pass_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything above is ready
};

}  // namespace placard::db
