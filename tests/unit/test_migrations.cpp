// Migrations: file names, listing with checksums, and the append-only check (no database).
#include "lib/db/migrations.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using placard::db::check_applied;
using placard::db::list_migrations;
using placard::db::migration_checksum;
using placard::db::migration_number;
using placard::db::MigrationFile;

// A fresh directory, removed with the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "placard-unit-migrations-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

TEST(Migrations, ChecksumIsSha256HexOfTheBytes) {
  EXPECT_EQ(migration_checksum(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(migration_checksum("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // One byte more (a trailing newline, a CR) is another file.
  EXPECT_NE(migration_checksum("SELECT 1;\n"), migration_checksum("SELECT 1;\r\n"));
  EXPECT_EQ(migration_checksum(std::string("a\0b", 3)).size(), 64u);
}

TEST(Migrations, FileNames) {
  EXPECT_EQ(migration_number("0001_initial.sql"), 1);
  EXPECT_EQ(migration_number("0042_add_x2.sql"), 42);
  EXPECT_EQ(migration_number("9999_a.sql"), 9999);
  EXPECT_EQ(migration_number("0001_.sql"), -1);
  EXPECT_EQ(migration_number("001_initial.sql"), -1);
  EXPECT_EQ(migration_number("0001-initial.sql"), -1);
  EXPECT_EQ(migration_number("0001_Initial.sql"), -1);
  EXPECT_EQ(migration_number("0001_initial.sql~"), -1);
  EXPECT_EQ(migration_number("0001_initial.SQL"), -1);
  EXPECT_EQ(migration_number("000a_initial.sql"), -1);
  EXPECT_EQ(migration_number("0001_in itial.sql"), -1);
  EXPECT_EQ(migration_number("demo"), -1);
}

TEST(Migrations, ListingIsSortedWithChecksumsAndIgnoresOtherFiles) {
  const TempDir dir;
  dir.write("0010_later.sql", "SELECT 10;\n");
  dir.write("0002_admin.sql", "SELECT 2;\n");
  dir.write("0001_initial.sql", "SELECT 1;\n");
  dir.write("README", "not a migration");
  dir.write("0003_draft.sql.orig", "SELECT 3;\n");
  fs::create_directory(dir.str() + "/0004_dir.sql");  // a directory is not a file
  const auto files = list_migrations(dir.str());
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].version, 1);
  EXPECT_EQ(files[0].name, "0001_initial.sql");
  EXPECT_EQ(files[0].path, dir.str() + "/0001_initial.sql");
  EXPECT_EQ(files[0].checksum, migration_checksum("SELECT 1;\n"));
  EXPECT_EQ(files[1].name, "0002_admin.sql");
  EXPECT_EQ(files[2].name, "0010_later.sql");
  EXPECT_EQ(files[2].checksum, migration_checksum("SELECT 10;\n"));
}

TEST(Migrations, TwoFilesWithOneNumberAreRefused) {
  const TempDir dir;
  dir.write("0001_initial.sql", "SELECT 1;");
  dir.write("0001_other.sql", "SELECT 1;");
  EXPECT_THROW(list_migrations(dir.str()), std::runtime_error);
}

TEST(Migrations, MissingDirectoryThrows) {
  EXPECT_ANY_THROW(list_migrations("/nonexistent/placard-sql"));
}

std::vector<MigrationFile> two_files() {
  return {{1, "0001_initial.sql", "/sql/0001_initial.sql", migration_checksum("one")},
          {2, "0002_admin.sql", "/sql/0002_admin.sql", migration_checksum("two")}};
}

TEST(Migrations, UnchangedAppliedFilesPass) {
  EXPECT_TRUE(check_applied(two_files(), {}).empty());
  EXPECT_TRUE(
      check_applied(two_files(), {{1, "0001_initial.sql", migration_checksum("one")}}).empty());
  EXPECT_TRUE(check_applied(two_files(), {{1, "0001_initial.sql", migration_checksum("one")},
                                          {2, "0002_admin.sql", migration_checksum("two")}})
                  .empty());
}

TEST(Migrations, RowsWithoutChecksumAreNotJudged) {
  EXPECT_TRUE(check_applied(two_files(), {{1, "0001_initial.sql", ""}}).empty());
}

TEST(Migrations, AChangedFileIsNamed) {
  const auto problems =
      check_applied(two_files(), {{1, "0001_initial.sql", migration_checksum("one")},
                                  {2, "0002_admin.sql", migration_checksum("two, before")}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("0002_admin.sql was changed after it was applied"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find(migration_checksum("two, before")), std::string::npos);
}

TEST(Migrations, AMissingOrRenamedFileIsNamed) {
  const std::vector<MigrationFile> only_first{two_files()[0]};
  auto problems = check_applied(only_first, {{1, "0001_initial.sql", migration_checksum("one")},
                                             {2, "0002_admin.sql", migration_checksum("two")}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "the applied migration 0002_admin.sql is missing");

  problems = check_applied(two_files(), {{2, "0002_settings.sql", ""}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "the applied migration 0002_settings.sql is missing (found 0002_admin.sql)");
}

TEST(Migrations, EveryProblemIsReported) {
  const auto problems =
      check_applied({two_files()[1]}, {{1, "0001_initial.sql", "x"}, {2, "0002_admin.sql", "y"}});
  EXPECT_EQ(problems.size(), 2u);
}

}  // namespace
