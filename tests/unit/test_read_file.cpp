// util::read_whole_file (lib/util/read_file.h): the one reader of whole files.
#include "lib/util/read_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace placard::util {
namespace {

std::string temp_path(const char* name) {
  return ::testing::TempDir() + name;
}

TEST(ReadWholeFile, GivesTheBytesUnchanged) {
  const std::string path = temp_path("read_file_bytes");
  const std::string bytes = std::string("a = 1\r\nb = 2\n", 13) + std::string(1, '\0') + "tail";
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(read_whole_file(path), bytes);
  std::remove(path.c_str());
}

TEST(ReadWholeFile, AnEmptyFileIsEmptyText) {
  const std::string path = temp_path("read_file_empty");
  std::ofstream(path) << "";
  EXPECT_EQ(read_whole_file(path), std::string());
  std::remove(path.c_str());
}

TEST(ReadWholeFile, ALargeFileIsReadToItsEnd) {
  const std::string path = temp_path("read_file_large");
  const std::string bytes(3 * 1024 * 1024 + 7, 'x');
  std::ofstream(path, std::ios::binary) << bytes;
  const auto text = read_whole_file(path);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->size(), bytes.size());
  std::remove(path.c_str());
}

TEST(ReadWholeFile, NothingForAMissingFileOrADirectory) {
  EXPECT_FALSE(read_whole_file(temp_path("read_file_missing_for_sure")).has_value());
  EXPECT_FALSE(read_whole_file(::testing::TempDir()).has_value());
  EXPECT_FALSE(read_whole_file("").has_value());
}

}  // namespace
}  // namespace placard::util
