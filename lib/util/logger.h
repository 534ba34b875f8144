#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace placard::util {

// Line-oriented log: one line per request, plus errors with detail. Thread-safe without a lock:
// each line goes out in one write(2) to a descriptor opened with O_APPEND (or standard error),
// which the kernel keeps whole. Never give it secrets, tokens or query strings.
class Logger {
 public:
  // Empty path: standard error. Throws std::runtime_error when the file cannot be opened.
  explicit Logger(const std::string& path);
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;
  Logger(Logger&&) = delete;
  Logger& operator=(Logger&&) = delete;
  void request(std::string_view method, std::string_view path, int status, long long micros,
               std::string_view request_id);
  void error(std::string_view request_id, std::string_view what);
  void info(std::string_view what);

 private:
  void write_line(std::string& line) const;
  int fd_ = 2;  // standard error unless a file was opened
  bool owns_fd_ = false;
};

// Longest line written: a pipe keeps writes of up to PIPE_BUF (4096) bytes whole.
inline constexpr std::size_t kMaxLogLine = 4096;

// Appends the printable form of untrusted text for a log line to `out`: control characters,
// quotes, backslashes and non-ASCII escaped as \xHH, cut at max bytes ("..." after a cut).
inline constexpr std::size_t kLogSafeDefault = 200;
void append_log_safe(std::string& out, std::string_view text, std::size_t max = kLogSafeDefault);

}  // namespace placard::util
