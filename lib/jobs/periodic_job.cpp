#include "lib/jobs/periodic_job.h"

namespace placard::db {

PeriodicJob::PeriodicJob(ConnectionParams params, std::chrono::milliseconds first_delay,
                         std::chrono::milliseconds interval, Pass pass)
    : params_(std::move(params)),
      first_delay_(first_delay),
      interval_(interval),
      pass_(std::move(pass)),
      thread_([this] { run(); }) {}

PeriodicJob::~PeriodicJob() {
  stop();
  thread_.join();
}

void PeriodicJob::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

bool PeriodicJob::stopping() {
  const std::lock_guard lock(mutex_);
  return stopping_;
}

bool PeriodicJob::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, d, [this] { return stopping_; });
}

void PeriodicJob::run() {
  const DriverThreadScope scope;
  MysqlSession session(params_);
  if (!sleep_for(first_delay_)) return;
  do {
    pass_(session);
  } while (sleep_for(interval_));
}

}  // namespace placard::db
