#pragma once

// A temporary file for the unit tests that read files.

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace placard::test {

// A temporary file holding `text`, removed at the end of the scope.
class TextFile {
 public:
  explicit TextFile(const std::string& text) {
    const int fd = mkstemp(path_);
    if (fd >= 0) close(fd);
    std::ofstream(path_) << text;
  }
  ~TextFile() { unlink(path_); }
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;
  const char* path() const { return path_; }

 private:
  char path_[64] = "/tmp/placard_test_config_XXXXXX";
};

}  // namespace placard::test
