#pragma once
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace placard::util {

// Line-oriented log: one line per request, plus errors with detail. Thread-safe.
// Never give it secrets, tokens or query strings.
class Logger {
 public:
  // Empty path: standard error. Throws std::runtime_error when the file cannot be opened.
  explicit Logger(const std::string& path);
  void request(std::string_view method, std::string_view path, int status, long long micros,
               std::string_view request_id);
  void error(std::string_view request_id, std::string_view what);
  void info(std::string_view what);

 private:
  void write_line(const std::string& line);
  struct FileCloser {
    void operator()(std::FILE* f) const {
      if (f != nullptr) std::fclose(f);
    }
  };
  std::unique_ptr<std::FILE, FileCloser> owned_;
  std::FILE* out_;
  std::mutex mutex_;
};

// Printable form of untrusted text for a log line: control characters and non-ASCII escaped,
// cut at max bytes.
std::string log_safe(std::string_view text, std::size_t max = 200);

}  // namespace placard::util
