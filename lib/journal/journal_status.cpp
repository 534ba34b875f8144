#include "lib/journal/journal_status.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <string_view>

#include "lib/journal/journal_file.h"
#include "lib/journal/record_format.h"

namespace placard::journal {

std::vector<FileStatus> journal_status(const std::string& dir) {
  std::vector<FileStatus> out;
  for (const auto& entry : list_journal_files(dir)) {
    const int fd = ::open(entry.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // replayed and removed meanwhile
    FileStatus s;
    s.path = entry.path;
    s.held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    std::string bytes;
    std::array<char, 65536> buf{};
    for (;;) {
      const auto n = ::read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      bytes.append(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    const Decoded d = decode_records(bytes);
    s.bytes = bytes.size();
    s.records = d.records.size();
    s.torn_bytes = d.torn_bytes;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace placard::journal
