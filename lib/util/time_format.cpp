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
  const int y = static_cast<int>(ymd.year());
  if (y < 0 || y > 9999) {  // never in practice: the general form
    char buf[40];
    const int n = std::snprintf(
        buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", y, static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
        static_cast<int>(hms.minutes().count()), static_cast<int>(hms.seconds().count()));
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    return;
  }
  // Digit by digit: every log line and many answers carry a time, and a formatted print cost
  // more than the rest of the log line (issue 24, callgrind).
  const auto two = [&out](unsigned v) {
    out += static_cast<char>('0' + v / 10);
    out += static_cast<char>('0' + v % 10);
  };
  two(static_cast<unsigned>(y) / 100);
  two(static_cast<unsigned>(y) % 100);
  out += '-';
  two(static_cast<unsigned>(ymd.month()));
  out += '-';
  two(static_cast<unsigned>(ymd.day()));
  out += 'T';
  two(static_cast<unsigned>(hms.hours().count()));
  out += ':';
  two(static_cast<unsigned>(hms.minutes().count()));
  out += ':';
  two(static_cast<unsigned>(hms.seconds().count()));
  out += 'Z';
}

std::string format_rfc3339(std::int64_t unix_seconds) {
  std::string out;
  append_rfc3339(out, unix_seconds);
  return out;
}

namespace {

// Exactly n ASCII digits at text[pos], as a number; -1 otherwise.
int digits(std::string_view text, std::size_t pos, std::size_t n) {
  if (pos + n > text.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

std::optional<std::int64_t> day_start(int y, int m, int d) {
  using namespace std::chrono;
  if (y < 1970 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd}.time_since_epoch().count() * std::int64_t{86400};
}

}  // namespace

std::optional<std::int64_t> parse_date(std::string_view t) {
  if (t.size() != 10 || t[4] != '-' || t[7] != '-') return std::nullopt;
  return day_start(digits(t, 0, 4), digits(t, 5, 2), digits(t, 8, 2));
}

std::optional<std::int64_t> parse_rfc3339(std::string_view t) {
  if (t.size() < 20 || (t[10] != 'T' && t[10] != 't') || t[13] != ':' || t[16] != ':') {
    return std::nullopt;
  }
  const auto day = parse_date(t.substr(0, 10));
  const int h = digits(t, 11, 2);
  const int mi = digits(t, 14, 2);
  const int s = digits(t, 17, 2);
  if (!day || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return std::nullopt;
  std::size_t pos = 19;
  if (t[pos] == '.') {
    const std::size_t start = ++pos;
    while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9') ++pos;
    if (pos == start || pos - start > 9) return std::nullopt;
  }
  std::int64_t offset = 0;
  const std::string_view zone = t.substr(pos);
  if (zone == "Z" || zone == "z") {
    offset = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    const int oh = digits(zone, 1, 2);
    const int om = digits(zone, 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset = (std::int64_t{oh} * 3600 + std::int64_t{om} * 60) * (zone[0] == '+' ? 1 : -1);
  } else {
    return std::nullopt;
  }
  return *day + std::int64_t{h} * 3600 + std::int64_t{mi} * 60 + s - offset;
}

std::string format_date(std::int64_t unix_seconds) {
  return format_rfc3339(unix_seconds).substr(0, 10);
}

}  // namespace placard::util
