#include "lib/util/logger.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "lib/util/append_decimal.h"
#include "lib/util/time_format.h"

namespace placard::util {

Logger::Logger(const std::string& path) {
  if (!path.empty()) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): open(2) takes the mode as a vararg
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd_ < 0) throw std::runtime_error("cannot open log file " + path);
    owns_fd_ = true;
  }
}

Logger::~Logger() {
  if (owns_fd_) ::close(fd_);
}

void append_log_safe(std::string& out, std::string_view text, std::size_t max) {
  static constexpr std::string_view kHex = "0123456789abcdef";
  const std::size_t n = std::min(text.size(), max);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0x0F];
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (text.size() > max) out += "...";
}

void Logger::write_line(std::string& line) const {
  if (line.size() > kMaxLogLine) {
    line.resize(kMaxLogLine - 4);
    line += "...\n";
  }
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to report a failing log; the request itself goes on
    done += static_cast<std::size_t>(n);
  }
}

void Logger::request(std::string_view method, std::string_view path, int status, long long micros,
                     std::string_view request_id) {
  // Written in place, without a formatted print or a temporary string: one line per request is
  // on every request's path (issue 24, callgrind).
  std::string line;
  line.reserve(128 + path.size());
  append_rfc3339(line, unix_now());
  line += " request method=";
  append_log_safe(line, method, 16);
  line += " path=\"";
  append_log_safe(line, path, kLogSafeDefault);
  line += "\" status=";
  append_decimal(line, status);
  line += " us=";
  append_decimal(line, micros);
  line += " rid=";
  append_log_safe(line, request_id, 64);
  line += '\n';
  write_line(line);
}

void Logger::error(std::string_view request_id, std::string_view what) {
  std::string line;
  append_rfc3339(line, unix_now());
  line += " error rid=";
  append_log_safe(line, request_id, 64);
  line += " detail=\"";
  append_log_safe(line, what, 1000);
  line += "\"\n";
  write_line(line);
}

void Logger::info(std::string_view what) {
  std::string line;
  append_rfc3339(line, unix_now());
  line += " info ";
  append_log_safe(line, what, 1000);
  line += '\n';
  write_line(line);
}

}  // namespace placard::util
