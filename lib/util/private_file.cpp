#include "lib/util/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

namespace placard::util {

namespace {

std::string error_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

// The temporary file: removed unless kept.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : path_(target + ".tmp-XXXXXX") {
    std::vector<char> name(path_.begin(), path_.end());
    name.push_back('\0');
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);  // O_CREAT | O_EXCL, mode 0600
    if (fd_ < 0) throw std::runtime_error("cannot create a file next to " + target);
    path_.assign(name.data());
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write_all(const std::string& text) {
    if (::fchmod(fd_, 0600) != 0) throw std::runtime_error("cannot restrict " + path_);
    std::size_t done = 0;
    while (done < text.size()) {
      const auto n = ::write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error("cannot write " + path_ + ": " + error_text(errno));
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd_) != 0 || ::close(std::exchange(fd_, -1)) != 0) {
      throw std::runtime_error("cannot write " + path_ + ": " + error_text(errno));
    }
  }
  const std::string& path() const { return path_; }
  void keep() { kept_ = true; }

 private:
  std::string path_;
  int fd_ = -1;
  bool kept_ = false;
};

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The rename itself reaches the disk.
void sync_directory(const std::string& path) {
  const int fd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void write_private_file(const std::string& path, const std::string& text, bool replace) {
  TempFile temp(path);
  temp.write_all(text);
  const int moved = replace ? ::rename(temp.path().c_str(), path.c_str())
                            : ::renameat2(AT_FDCWD, temp.path().c_str(), AT_FDCWD, path.c_str(),
                                          RENAME_NOREPLACE);
  if (moved != 0) {
    const int error = errno;
    if (error == EEXIST) throw std::runtime_error(path + " exists (use --force to replace it)");
    throw std::runtime_error("cannot write " + path + ": " + error_text(error));
  }
  temp.keep();
  sync_directory(path);
}

}  // namespace placard::util
