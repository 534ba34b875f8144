#include "lib/util/logger.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using placard::util::kMaxLogLine;
using placard::util::Logger;

// A file name in a fresh private directory, removed with the directory afterwards.
class LogFile {
 public:
  LogFile() {
    std::string pattern = ::testing::TempDir() + "placard-log-XXXXXX";
    dir_ = ::mkdtemp(pattern.data());
    path_ = dir_ + "/placard.log";
  }
  ~LogFile() {
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;
  const std::string& path() const { return path_; }
  std::vector<std::string> lines() const {
    std::ifstream in(path_);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  std::string text() const {
    std::ifstream in(path_);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string dir_;
  std::string path_;
};

// "2026-11-23T02:09:46Z": the RFC 3339 time every line starts with.
bool starts_with_timestamp(const std::string& line) {
  const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
  if (line.size() < shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = line[i] >= '0' && line[i] <= '9';
    if (shape[i] == 'd' ? !digit : line[i] != shape[i]) return false;
  }
  return true;
}

TEST(Logger, AppendsToAnExistingFile) {
  const LogFile file;
  { std::ofstream(file.path()) << "earlier line\n"; }
  {
    Logger log(file.path());
    log.info("started");
  }
  const auto lines = file.lines();
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0], "earlier line");
  EXPECT_TRUE(starts_with_timestamp(lines[1])) << lines[1];
  EXPECT_EQ(lines[1].substr(20), " info started");
}

TEST(Logger, ConcurrentRequestLinesStayWhole) {
  // No lock: each line must be one write(2) to an O_APPEND descriptor, so lines from many
  // threads never interleave or overwrite each other.
  const LogFile file;
  constexpr int kThreads = 8;
  constexpr int kLines = 2000;
  {
    Logger log(file.path());
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&log, t] {
        for (int i = 0; i < kLines; ++i) {
          log.request("POST", "/api/v1/offers/query", 200, i,
                      "t" + std::to_string(t) + "-" + std::to_string(i));
        }
      });
    }
    for (auto& th : threads) th.join();
  }
  const auto lines = file.lines();
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kThreads * kLines));
  const std::string middle = R"( request method=POST path="/api/v1/offers/query" status=200 us=)";
  std::vector<std::vector<bool>> seen(kThreads, std::vector<bool>(kLines, false));
  for (const auto& line : lines) {
    ASSERT_TRUE(starts_with_timestamp(line)) << line;
    ASSERT_EQ(line.compare(20, middle.size(), middle), 0) << line;
    int us = -1;
    int t = -1;
    int i = -1;
    char end = 0;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,cert-err34-c): checked by the count
    ASSERT_EQ(std::sscanf(line.c_str() + 20 + middle.size(), "%d rid=t%d-%d%c", &us, &t, &i, &end),
              3)
        << line;
    ASSERT_TRUE(t >= 0 && t < kThreads && i >= 0 && i < kLines) << line;
    EXPECT_EQ(us, i);
    EXPECT_FALSE(seen[t][i]) << "line written twice: " << line;
    seen[t][i] = true;
  }
}

TEST(Logger, OverlongLinesAreCutToOneWrite) {
  const LogFile file;
  {
    Logger log(file.path());
    log.error("rid1", std::string(kMaxLogLine, 'a'));  // escaped form is cut at 1000 characters
    // Every byte escaped to 4 characters: 256 + 4000 characters, past what a pipe keeps whole.
    log.error(std::string(64, '\x01'), std::string(1000, '\x01'));
    log.info("after");
  }
  const auto text = file.text();
  const auto lines = file.lines();
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[1].size() + 1, kMaxLogLine);
  EXPECT_TRUE(lines[1].ends_with("\\x01...")) << lines[1].substr(lines[1].size() - 20);
  EXPECT_NE(lines[0].find("detail=\"" + std::string(1000, 'a') + "...\""), std::string::npos);
  EXPECT_TRUE(lines[2].ends_with(" info after"));
  EXPECT_EQ(text.back(), '\n');
}

TEST(Logger, UnopenableFileIsAnError) {
  EXPECT_THROW(Logger("/nonexistent-dir/placard.log"), std::runtime_error);
}

}  // namespace

TEST(Logger, RequestLineSpelledFieldByField) {
  LogFile file;
  {
    Logger log(file.path());
    log.request("GET", "/a\"b\n\xc3\xa9", 404, 1234567, "rid-1");
    log.request("POST", std::string(250, 'p'), 200, 0, std::string(70, 'r'));
  }
  const auto lines = file.lines();
  ASSERT_EQ(lines.size(), 2U);
  ASSERT_TRUE(starts_with_timestamp(lines[0]));
  EXPECT_EQ(lines[0].substr(20),
            " request method=GET path=\"/a\\x22b\\x0a\\xc3\\xa9\" status=404 us=1234567 rid=rid-1");
  EXPECT_EQ(lines[1].substr(20), " request method=POST path=\"" + std::string(200, 'p') +
                                     "...\" status=200 us=0 rid=" + std::string(64, 'r') + "...");
}
