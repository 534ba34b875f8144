#include "fcgi-app/listen_socket.h"

#include <fcgiapp.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "lib/util/parse_int.h"

namespace placard::fcgi {

namespace {

constexpr int kBacklog = 1024;

std::string error_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

gid_t group_id(const std::string& name) {
  if (const auto gid = util::parse_int_in<gid_t>(name, 0, static_cast<gid_t>(-1))) return *gid;
  struct group entry {};
  struct group* found = nullptr;
  std::vector<char> buf(16384);
  if (::getgrnam_r(name.c_str(), &entry, buf.data(), buf.size(), &found) != 0 || found == nullptr) {
    throw std::runtime_error("socket_group: no group named " + name);
  }
  return entry.gr_gid;
}

// A file descriptor closed unless released.
class OwnedFd {
 public:
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  OwnedFd(OwnedFd&& other) noexcept : fd_(other.release()) {}
  OwnedFd& operator=(OwnedFd&&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

bool fits_socket_address(const std::string& path) {
  return !path.empty() && path.size() < sizeof(sockaddr_un::sun_path);
}

void require_socket_address(const std::string& path) {
  if (!fits_socket_address(path)) {
    throw std::runtime_error("listen: unix socket path empty or too long: " + path);
  }
}

sockaddr_un unix_address(const std::string& path) {
  require_socket_address(path);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

enum class FileKind { none, socket, other };

FileKind file_kind(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return FileKind::none;
  return S_ISSOCK(st.st_mode) ? FileKind::socket : FileKind::other;
}

// A listening socket at `name` (a stale socket file there is replaced), given `group` and `mode`.
OwnedFd listening_at(const std::string& name, const std::string& path, unsigned mode,
                     const std::string& group) {
  const sockaddr_un addr = unix_address(name);
  if (file_kind(name) == FileKind::socket) ::unlink(name.c_str());
  OwnedFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw std::runtime_error("cannot create a unix socket");
  // Before any thread that creates files starts: the umask is the process's.
  const mode_t old_umask = ::umask(0177);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API takes sockaddr*
  const int bound = ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  const int bind_errno = errno;
  ::umask(old_umask);
  if (bound != 0) {
    throw std::runtime_error("cannot listen on " + path + ": " + error_text(bind_errno));
  }
  try {
    if (!group.empty() && ::chown(name.c_str(), static_cast<uid_t>(-1), group_id(group)) != 0) {
      throw std::runtime_error("cannot give " + path + " to group " + group + ": " +
                               error_text(errno));
    }
    if (::chmod(name.c_str(), mode) != 0) throw std::runtime_error("cannot chmod " + path);
    if (::listen(fd.get(), kBacklog) != 0) throw std::runtime_error("cannot listen on " + path);
  } catch (...) {
    ::unlink(name.c_str());  // no socket file that refuses connections is left behind
    throw;
  }
  return fd;
}

ListenSocket made_at(OwnedFd fd, const std::string& path) {
  struct stat st {};
  ListenSocket out;
  if (::lstat(path.c_str(), &st) == 0) {
    out.dev = st.st_dev;
    out.ino = st.st_ino;
  }
  out.path = path;
  out.fd = fd.release();
  return out;
}

ListenSocket open_unix_socket(const std::string& path, unsigned mode, const std::string& group) {
  require_socket_address(path);
  if (file_kind(path) == FileKind::other) {
    throw std::runtime_error("cannot listen on " + path + ": " + error_text(EADDRINUSE));
  }
  // Made under a name of this process beside the path, then renamed onto it once it listens:
  // whoever sees a socket at the path (a web server connecting while the worker starts or is
  // restarted, a script waiting for the file) finds the old one or one that takes connections,
  // never a file that refuses them, nor a moment with none. Where that name is too long for a
  // socket address, the socket is made at the path itself.
  const std::string staging = path + "." + std::to_string(::getpid());
  if (!fits_socket_address(staging)) {
    return made_at(listening_at(path, path, mode, group), path);
  }
  OwnedFd fd = listening_at(staging, path, mode, group);
  if (::rename(staging.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(staging.c_str());
    throw std::runtime_error("cannot listen on " + path + ": " + error_text(rename_errno));
  }
  return made_at(std::move(fd), path);
}

}  // namespace

ListenSocket open_listen_socket(const std::string& listen, unsigned mode,
                                const std::string& group) {
  if (listen.rfind("unix:", 0) == 0) return open_unix_socket(listen.substr(5), mode, group);
  ListenSocket out;
  out.fd = FCGX_OpenSocket(listen.c_str(), kBacklog);
  if (out.fd < 0) throw std::runtime_error("cannot listen on " + listen);
  return out;
}

void remove_socket_file(const ListenSocket& socket) {
  if (socket.path.empty()) return;
  struct stat st {};
  if (::lstat(socket.path.c_str(), &st) == 0 && st.st_dev == socket.dev &&
      st.st_ino == socket.ino) {
    ::unlink(socket.path.c_str());
  }
}

}  // namespace placard::fcgi
