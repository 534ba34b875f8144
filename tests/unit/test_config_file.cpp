#include "lib/config/config_file.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

namespace {

using placard::config::ConfigError;
using placard::config::parse_config_text;

using Map = std::map<std::string, std::string>;

// The ConfigError message of parse_config_text; fails the test when it does not throw.
std::string parse_error(std::string_view text) {
  try {
    parse_config_text(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return {};
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ConfigFile, ParsesKeysAndValues) {
  const auto m = parse_config_text(
      "listen = unix:/run/placard.sock\n"
      "threads = 4\n"
      "db.password = s3cret\n");
  EXPECT_EQ(
      m, (Map{{"listen", "unix:/run/placard.sock"}, {"threads", "4"}, {"db.password", "s3cret"}}));
}

TEST(ConfigFile, CommentsAndBlankLinesIgnored) {
  const auto m = parse_config_text(
      "# a comment\n"
      "\n"
      "   # indented comment = not a key\n"
      "\t\n"
      "threads = 2\n"
      "#threads = 3\n"
      "\n");
  EXPECT_EQ(m, (Map{{"threads", "2"}}));
}

TEST(ConfigFile, EmptyTextIsEmptyMap) {
  EXPECT_TRUE(parse_config_text("").empty());
  EXPECT_TRUE(parse_config_text("\n\n# only comments\n").empty());
}

TEST(ConfigFile, TrimsKeysAndValues) {
  const auto m = parse_config_text(
      "  listen\t=\t127.0.0.1:9000  \r\n"
      "log_file=/var/log/p.log\n"
      "db.user =    placard   \n"
      "sql_dir =\n");
  EXPECT_EQ(m, (Map{{"listen", "127.0.0.1:9000"},
                    {"log_file", "/var/log/p.log"},
                    {"db.user", "placard"},
                    {"sql_dir", ""}}));
}

TEST(ConfigFile, ValueKeepsInnerSpacesEqualsAndHash) {
  const auto m = parse_config_text("db.password = a b=c#d = e\n");
  EXPECT_EQ(m.at("db.password"), "a b=c#d = e");
}

TEST(ConfigFile, LastLineWithoutNewline) {
  EXPECT_EQ(parse_config_text("threads = 8"), (Map{{"threads", "8"}}));
}

TEST(ConfigFile, CrLfLineEndings) {
  EXPECT_EQ(parse_config_text("threads = 8\r\n\r\ndb.port = 3307\r\n"),
            (Map{{"threads", "8"}, {"db.port", "3307"}}));
}

TEST(ConfigFile, RepeatedKeyReportsItsLine) {
  const std::string e = parse_error(
      "# header\n"
      "threads = 2\n"
      "\n"
      "threads = 3\n");
  EXPECT_TRUE(contains(e, "line 4")) << e;
  EXPECT_TRUE(contains(e, "threads")) << e;
  EXPECT_TRUE(contains(e, "repeated")) << e;
}

TEST(ConfigFile, InvalidKeyReportsItsLine) {
  for (const char* text : {"Threads = 2", "db-port = 1", "db port = 1", "= value", "ké = v",
                           "a/b = c", "\"threads\" = 2"}) {
    const std::string e = parse_error(std::string("\n") + text + "\n");
    EXPECT_TRUE(contains(e, "line 2")) << text << ": " << e;
    EXPECT_TRUE(contains(e, "invalid key")) << text << ": " << e;
  }
}

TEST(ConfigFile, LineWithoutEqualsReportsItsLine) {
  const std::string e = parse_error("threads = 2\nthreads 3\n");
  EXPECT_TRUE(contains(e, "line 2")) << e;
  EXPECT_TRUE(contains(e, "key = value")) << e;
}

TEST(ConfigFile, LineNumbersCountCommentsAndBlankLines) {
  const std::string e = parse_error("# 1\n\n# 3\n\n\nbroken line\n");
  EXPECT_TRUE(contains(e, "line 6")) << e;
  EXPECT_FALSE(contains(e, "line 5")) << e;
}

// Errors name the line, never the value: a value may be a secret.
TEST(ConfigFile, ErrorsNeverContainThePasswordValue) {
  const std::string secret = "Hunter2-Pa55word";
  const std::string texts[] = {
      "db.password = " + secret + "\ndb.password = " + secret + "\n",
      "db.password = " + secret + "\nbroken\n",
      "db.password " + secret + "\n",
      "db.password: " + secret + "\n",
      "DB.PASSWORD = " + secret + "\n",
      "db password = " + secret + "\n",
      "db.admin_password = " + secret + "\ndb.admin_password = " + secret + "\n",
  };
  for (const auto& text : texts) {
    const std::string e = parse_error(text);
    EXPECT_FALSE(e.empty()) << text;
    EXPECT_FALSE(contains(e, secret)) << e;
    EXPECT_FALSE(contains(e, "Hunter2")) << e;
  }
}

}  // namespace
