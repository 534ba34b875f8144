#include "lib/journal/journal_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <random>
#include <system_error>
#include <utility>

namespace placard::journal {

namespace {

std::system_error os_error(const std::string& what) {
  return {errno, std::generic_category(), what};
}

std::string unique_name() {
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s = "clicks-" + std::to_string(::getpid()) + "-";
  for (int i = 0; i < 4; ++i) {
    auto v = rd();
    for (int j = 0; j < 4; ++j, v >>= 8) {
      s += kHex[(v >> 4) & 0xf];
      s += kHex[v & 0xf];
    }
  }
  return s;
}

bool is_journal_name(std::string_view name) {
  return name.size() > 11 && name.substr(0, 7) == "clicks-" &&
         name.substr(name.size() - 4) == ".jnl";
}

}  // namespace

JournalFile::~JournalFile() {
  if (fd_ >= 0) ::close(fd_);
}

JournalFile::JournalFile(JournalFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      bytes_(other.bytes_),
      records_(other.records_) {}

JournalFile& JournalFile::operator=(JournalFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    bytes_ = other.bytes_;
    records_ = other.records_;
  }
  return *this;
}

JournalFile JournalFile::create(const std::string& dir) {
  const std::string name = unique_name();
  const std::string tmp = dir + "/." + name + ".tmp";
  const std::string path = dir + "/" + name + ".jnl";
  const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) throw os_error("cannot create " + tmp);
  JournalFile f(path, fd, 0, 0);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const auto e = os_error("cannot lock and name " + path);
    ::unlink(tmp.c_str());
    throw e;
  }
  sync_dir(dir);
  return f;
}

JournalFile JournalFile::claim(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  JournalFile f(path, fd, 0, 0);
  struct stat st {};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &st) != 0 || st.st_nlink == 0) {
    return {};  // a live process holds it, or it was replayed and removed meanwhile
  }
  f.bytes_ = static_cast<std::uint64_t>(st.st_size);
  return f;
}

bool JournalFile::append(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done == bytes.size() && ::fdatasync(fd_) == 0) {
    bytes_ += bytes.size();
    return true;
  }
  // Nothing half written stays: the next record starts where this one did.
  if (::ftruncate(fd_, static_cast<off_t>(bytes_)) == 0) (void)::fdatasync(fd_);
  return false;
}

std::string JournalFile::read_all() const {
  std::string out;
  std::array<char, 65536> buf{};
  off_t at = 0;
  for (;;) {
    const auto n = ::pread(fd_, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw os_error("cannot read " + path_);
    if (n == 0) return out;
    out.append(buf.data(), static_cast<std::size_t>(n));
    at += n;
  }
}

void JournalFile::remove() {
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) throw os_error("cannot remove " + path_);
  sync_dir(path_.substr(0, path_.rfind('/')));
}

std::vector<FileEntry> list_journal_files(const std::string& dir) {
  std::vector<FileEntry> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {  // NOLINT(concurrency-mt-unsafe): own DIR stream
    if (!is_journal_name(e->d_name)) continue;
    FileEntry f{dir + "/" + e->d_name, 0};
    struct stat st {};
    if (::stat(f.path.c_str(), &st) == 0) {
      f.bytes = static_cast<std::uint64_t>(st.st_size);
      out.push_back(std::move(f));
    }
  }
  ::closedir(d);
  return out;
}

void sync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace placard::journal
