#include "lib/db/sql_script.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using placard::db::split_sql_script;
using Statements = std::vector<std::string>;

TEST(DbSqlScript, SplitsAtSemicolons) {
  EXPECT_EQ(split_sql_script("CREATE TABLE a (x INT);\nCREATE TABLE b (y INT);\n"),
            (Statements{"CREATE TABLE a (x INT)", "CREATE TABLE b (y INT)"}));
}

TEST(DbSqlScript, TrailingStatementWithoutSemicolon) {
  EXPECT_EQ(split_sql_script("SELECT 1;\nSELECT 2\n"), (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT 1"), (Statements{"SELECT 1"}));
}

TEST(DbSqlScript, EmptyStatementsDropped) {
  EXPECT_EQ(split_sql_script(";;\n ; \t;SELECT 1;;\n;"), (Statements{"SELECT 1"}));
  EXPECT_TRUE(split_sql_script("").empty());
  EXPECT_TRUE(split_sql_script(" \n\t\r\n").empty());
  EXPECT_TRUE(split_sql_script(";").empty());
}

TEST(DbSqlScript, StatementsAreTrimmedButKeepInnerLines) {
  EXPECT_EQ(split_sql_script("\n\n  CREATE TABLE t (\n  id INT\n)  ;\n"),
            (Statements{"CREATE TABLE t (\n  id INT\n)"}));
}

TEST(DbSqlScript, SemicolonInsideSingleQuotes) {
  EXPECT_EQ(split_sql_script("INSERT INTO t VALUES ('a;b');SELECT 2;"),
            (Statements{"INSERT INTO t VALUES ('a;b')", "SELECT 2"}));
}

TEST(DbSqlScript, SemicolonInsideDoubleQuotes) {
  EXPECT_EQ(split_sql_script("SELECT \"x;y\";SELECT 2"),
            (Statements{"SELECT \"x;y\"", "SELECT 2"}));
}

TEST(DbSqlScript, SemicolonInsideBackticks) {
  EXPECT_EQ(split_sql_script("CREATE TABLE `we;ird` (`c;1` INT);SELECT 2"),
            (Statements{"CREATE TABLE `we;ird` (`c;1` INT)", "SELECT 2"}));
}

TEST(DbSqlScript, BackslashEscapedQuotes) {
  EXPECT_EQ(split_sql_script(R"(SELECT 'it\'s;fine';SELECT "say \";\"";SELECT 3)"),
            (Statements{R"(SELECT 'it\'s;fine')", R"(SELECT "say \";\"")", "SELECT 3"}));
  // An escaped backslash ends before the closing quote.
  EXPECT_EQ(split_sql_script(R"(SELECT 'a\\';SELECT 2)"),
            (Statements{R"(SELECT 'a\\')", "SELECT 2"}));
}

TEST(DbSqlScript, BackslashDoesNotEscapeInBackticks) {
  EXPECT_EQ(split_sql_script("SELECT `a\\`;SELECT 2"), (Statements{"SELECT `a\\`", "SELECT 2"}));
}

TEST(DbSqlScript, DoubledQuotes) {
  EXPECT_EQ(split_sql_script("SELECT 'it''s;fine';SELECT 2"),
            (Statements{"SELECT 'it''s;fine'", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT \"a\"\";\"\"b\";SELECT 2"),
            (Statements{"SELECT \"a\"\";\"\"b\"", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT `a``;b`;SELECT 2"),
            (Statements{"SELECT `a``;b`", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT '';SELECT ''''; SELECT 3"),
            (Statements{"SELECT ''", "SELECT ''''", "SELECT 3"}));
}

TEST(DbSqlScript, OtherQuoteKindsInsideAQuote) {
  EXPECT_EQ(split_sql_script("SELECT 'a\"b`c;d';SELECT \"x'y;\""),
            (Statements{"SELECT 'a\"b`c;d'", "SELECT \"x'y;\""}));
}

TEST(DbSqlScript, DashDashComments) {
  EXPECT_EQ(split_sql_script("-- header; with semicolon\nSELECT 1; -- trailing; comment\n"
                             "SELECT 2 -- before end; \n;"),
            (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT 1;\n--\n--\tx;y\nSELECT 2;"),
            (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_TRUE(split_sql_script("-- only a comment;").empty());
  EXPECT_TRUE(split_sql_script("--").empty());
}

TEST(DbSqlScript, DashDashWithoutSpaceIsNotAComment) {
  // MySQL needs whitespace after "--"; "5--1" is arithmetic.
  EXPECT_EQ(split_sql_script("SELECT 5--1;SELECT 2"), (Statements{"SELECT 5--1", "SELECT 2"}));
}

TEST(DbSqlScript, HashComments) {
  EXPECT_EQ(split_sql_script("# header; x\nSELECT 1; # note; y\nSELECT 2 #;\n;"),
            (Statements{"SELECT 1", "SELECT 2"}));
}

TEST(DbSqlScript, BlockComments) {
  EXPECT_EQ(split_sql_script("/* header; */SELECT 1;/* a;\n b; */SELECT 2;"),
            (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT /* x; */ 1;"), (Statements{"SELECT   1"}));
  EXPECT_EQ(split_sql_script("SELECT 1/**/;SELECT 2"), (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(split_sql_script("SELECT 1 /* ** ; */;"), (Statements{"SELECT 1"}));
  EXPECT_TRUE(split_sql_script("/* only; a comment */").empty());
}

TEST(DbSqlScript, UnterminatedBlockCommentSwallowsTheRest) {
  EXPECT_EQ(split_sql_script("SELECT 1; /* open; SELECT 2;"), (Statements{"SELECT 1"}));
  EXPECT_EQ(split_sql_script("SELECT 1; /*"), (Statements{"SELECT 1"}));
}

TEST(DbSqlScript, CommentMarkersInsideQuotesAreText) {
  EXPECT_EQ(split_sql_script("SELECT '-- no; # no /* no */';SELECT 2"),
            (Statements{"SELECT '-- no; # no /* no */'", "SELECT 2"}));
}

TEST(DbSqlScript, QuotesInsideCommentsAreIgnored) {
  EXPECT_EQ(split_sql_script("-- don't\nSELECT 1;\n# it's\nSELECT 2;/* 'x */SELECT 3;"),
            (Statements{"SELECT 1", "SELECT 2", "SELECT 3"}));
}

TEST(DbSqlScript, CrLfScript) {
  EXPECT_EQ(split_sql_script("SELECT 1;\r\n-- c;\r\nSELECT 2;\r\n"),
            (Statements{"SELECT 1", "SELECT 2"}));
}

TEST(DbSqlScript, RealisticMigration) {
  const char* script =
      "-- Placard schema\n"
      "SET NAMES utf8mb4;\n"
      "\n"
      "CREATE TABLE settings (\n"
      "  name VARCHAR(64) NOT NULL PRIMARY KEY, -- the key; unique\n"
      "  value TEXT NOT NULL\n"
      ") ENGINE=InnoDB;\n"
      "\n"
      "INSERT INTO settings (name, value) VALUES ('allowedClientOrigins', '[]'),\n"
      "  ('note', 'a;b');\n";
  EXPECT_EQ(split_sql_script(script),
            (Statements{"SET NAMES utf8mb4",
                        "CREATE TABLE settings (\n"
                        "  name VARCHAR(64) NOT NULL PRIMARY KEY, \n"
                        "  value TEXT NOT NULL\n"
                        ") ENGINE=InnoDB",
                        "INSERT INTO settings (name, value) VALUES ('allowedClientOrigins', "
                        "'[]'),\n  ('note', 'a;b')"}));
}

}  // namespace
