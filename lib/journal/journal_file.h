#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placard::journal {

// One journal file, open and locked (flock, exclusive) by this process: appended to while it is
// the process's active file, then replayed and removed. Closing releases the lock, so the file of
// a process that died can be claimed by any other process on the host.
class JournalFile {
 public:
  JournalFile() = default;
  JournalFile(std::string path, int fd, std::uint64_t bytes, std::uint64_t records)
      : path_(std::move(path)), fd_(fd), bytes_(bytes), records_(records) {}
  ~JournalFile();
  JournalFile(JournalFile&& other) noexcept;
  JournalFile& operator=(JournalFile&& other) noexcept;
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;

  // A new, empty, locked file in dir (made under a temporary name, locked, then renamed, so no
  // other process ever sees it unlocked). Throws std::system_error.
  static JournalFile create(const std::string& dir);
  // An existing file, locked when no live process holds it; an empty JournalFile when one does,
  // or when it was removed meanwhile (by the process that replayed it).
  static JournalFile claim(const std::string& path);

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t records() const { return records_; }
  void set_records(std::uint64_t n) { records_ = n; }

  // Appends the bytes and fsyncs them (false: the write failed; the file is cut back to its
  // previous length).
  bool append(std::string_view bytes);
  std::string read_all() const;
  // Removes the file (and syncs the directory); it stays open and locked until destroyed.
  void remove();

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t bytes_ = 0;
  std::uint64_t records_ = 0;
};

// The journal files (`clicks-*.jnl`) in dir, with their sizes.
struct FileEntry {
  std::string path;
  std::uint64_t bytes = 0;
};
std::vector<FileEntry> list_journal_files(const std::string& dir);
// Syncs the directory itself (a created, renamed or removed entry survives a crash).
void sync_dir(const std::string& dir);

}  // namespace placard::journal
