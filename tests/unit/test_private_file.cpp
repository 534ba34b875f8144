#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lib/util/private_file.h"

namespace {

namespace fs = std::filesystem;
using placard::util::write_private_file;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0);
  return st.st_mode & 07777;
}

class PrivateFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/placard_private_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Only `keep` in the directory: no temporary file left behind.
  void expect_only(const std::string& keep) {
    for (const auto& e : fs::directory_iterator(dir_)) {
      EXPECT_EQ(e.path().filename().string(), keep);
    }
  }
  fs::path dir_;
};

TEST_F(PrivateFile, IsOwnerOnlyWhateverTheUmask) {
  const auto old = ::umask(0);
  write_private_file(dir_ / "placard.conf", "secret = 1\n", false);
  ::umask(old);
  EXPECT_EQ(mode_of(dir_ / "placard.conf"), 0600u);
  EXPECT_EQ(slurp(dir_ / "placard.conf"), "secret = 1\n");
  expect_only("placard.conf");
}

TEST_F(PrivateFile, RefusesAnExistingFileWithoutReplace) {
  { std::ofstream(dir_ / "placard.conf") << "old\n"; }
  EXPECT_THROW(write_private_file(dir_ / "placard.conf", "new\n", false), std::runtime_error);
  EXPECT_EQ(slurp(dir_ / "placard.conf"), "old\n");
  expect_only("placard.conf");
}

TEST_F(PrivateFile, RefusesADanglingSymlinkWithoutReplace) {
  fs::create_symlink(dir_ / "elsewhere", dir_ / "placard.conf");
  EXPECT_THROW(write_private_file(dir_ / "placard.conf", "new\n", false), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "placard.conf"));
}

TEST_F(PrivateFile, ReplacesASymlinkInsteadOfFollowingIt) {
  { std::ofstream(dir_ / "victim") << "untouched\n"; }
  ::chmod((dir_ / "victim").c_str(), 0644);
  fs::create_symlink(dir_ / "victim", dir_ / "placard.conf");
  write_private_file(dir_ / "placard.conf", "secret\n", true);
  EXPECT_EQ(slurp(dir_ / "victim"), "untouched\n");
  EXPECT_EQ(mode_of(dir_ / "victim"), 0644u);
  EXPECT_FALSE(fs::is_symlink(dir_ / "placard.conf"));
  EXPECT_EQ(mode_of(dir_ / "placard.conf"), 0600u);
  EXPECT_EQ(slurp(dir_ / "placard.conf"), "secret\n");
}

TEST_F(PrivateFile, ReplacesInOneStep) {
  { std::ofstream(dir_ / "placard.conf") << "old contents\n"; }
  ::chmod((dir_ / "placard.conf").c_str(), 0644);
  std::ifstream reader(dir_ / "placard.conf");  // opened before: keeps seeing the old file whole
  write_private_file(dir_ / "placard.conf", "new\n", true);
  std::stringstream before;
  before << reader.rdbuf();
  EXPECT_EQ(before.str(), "old contents\n");
  EXPECT_EQ(slurp(dir_ / "placard.conf"), "new\n");
  EXPECT_EQ(mode_of(dir_ / "placard.conf"), 0600u);
  expect_only("placard.conf");
}

TEST_F(PrivateFile, FailsCleanlyInAMissingDirectory) {
  EXPECT_THROW(write_private_file(dir_ / "nope" / "placard.conf", "x\n", true), std::runtime_error);
}

}  // namespace
