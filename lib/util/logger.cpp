#include "lib/util/logger.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>

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

std::string log_safe(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (text.size() > max) out += "...";
  return out;
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
  std::string line;
  line.reserve(128);
  append_rfc3339(line, unix_now());
  line += " request method=";
  line += log_safe(method, 16);
  line += " path=\"";
  line += log_safe(path);
  line += "\" status=" + std::to_string(status) + " us=" + std::to_string(micros) + " rid=";
  line += log_safe(request_id, 64);
  line += '\n';
  write_line(line);
}

void Logger::error(std::string_view request_id, std::string_view what) {
  std::string line;
  append_rfc3339(line, unix_now());
  line += " error rid=";
  line += log_safe(request_id, 64);
  line += " detail=\"";
  line += log_safe(what, 1000);
  line += "\"\n";
  write_line(line);
}

void Logger::info(std::string_view what) {
  std::string line;
  append_rfc3339(line, unix_now());
  line += " info ";
  line += log_safe(what, 1000);
  line += '\n';
  write_line(line);
}

}  // namespace placard::util
