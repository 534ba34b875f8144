#include "lib/util/logger.h"

#include <chrono>
#include <stdexcept>

#include "lib/util/time_format.h"

namespace placard::util {

Logger::Logger(const std::string& path) : out_(stderr) {
  if (!path.empty()) {
    owned_.reset(std::fopen(path.c_str(), "a"));
    if (!owned_) throw std::runtime_error("cannot open log file " + path);
    out_ = owned_.get();
  }
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

void Logger::write_line(const std::string& line) {
  const std::lock_guard lock(mutex_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
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
