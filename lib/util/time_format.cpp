#include "lib/util/time_format.h"

#include <chrono>
#include <cstdio>

namespace placard::util {

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void append_rfc3339(std::string& out, std::int64_t unix_seconds) {
  using namespace std::chrono;
  const sys_seconds tp{seconds{unix_seconds}};
  const auto day = floor<days>(tp);
  const year_month_day ymd{day};
  const hh_mm_ss hms{tp - day};
  char buf[32];
  const int n =
      std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                    static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                    static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                    static_cast<int>(hms.seconds().count()));
  if (n > 0) out.append(buf, static_cast<std::size_t>(n));
}

std::string format_rfc3339(std::int64_t unix_seconds) {
  std::string out;
  append_rfc3339(out, unix_seconds);
  return out;
}

}  // namespace placard::util
