#include "lib/catalog/refresher.h"

namespace placard::catalog {

Refresher::Refresher(SnapshotHolder& holder, ReadVersion read_version, Load load, Report report,
                     std::chrono::milliseconds interval, Installed installed)
    : holder_(holder),
      read_version_(std::move(read_version)),
      load_(std::move(load)),
      report_(std::move(report)),
      interval_(interval),
      installed_(std::move(installed)) {}

bool Refresher::poll_once() {
  try {
    const auto current = holder_.get();
    if (current && read_version_() == current->version) {
      if (failing_) report_("catalog: database reachable again");
      failing_ = false;
      confirmed_at_.store(std::chrono::steady_clock::now().time_since_epoch().count());
      return false;
    }
    const auto started = std::chrono::steady_clock::now();
    auto next = load_();
    if (!next) {  // the source asks to wait (a replica catching up): the database answered
      confirmed_at_.store(std::chrono::steady_clock::now().time_since_epoch().count());
      return false;
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    report_("catalog: snapshot version " + std::to_string(next->version) + " with " +
            std::to_string(next->offers.size()) + " live offers built in " + std::to_string(ms) +
            " ms");
    holder_.set(std::move(next));
    failing_ = false;
    confirmed_at_.store(std::chrono::steady_clock::now().time_since_epoch().count());
    if (installed_) installed_();
    return true;
  } catch (const std::exception& e) {
    if (!failing_)
      report_(std::string("catalog: refresh failed, keeping the last snapshot: ") + e.what());
    failing_ = true;
    return false;
  }
}

void Refresher::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    poll_once();
    lock.lock();
    wake_.wait_for(lock, interval_, [this] { return stopping_; });
  }
}

bool Refresher::fresh(std::chrono::steady_clock::time_point now,
                      std::chrono::milliseconds max_age) const {
  const auto ticks = confirmed_at_.load();
  if (ticks == 0 || !holder_.get()) return false;
  const std::chrono::steady_clock::time_point at{std::chrono::steady_clock::duration(ticks)};
  return now - at <= max_age;
}

void Refresher::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

}  // namespace placard::catalog
