#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/journal/click_journal.h"
#include "lib/journal/record_format.h"

namespace {

namespace fs = std::filesystem;
using placard::db::EventRecord;
using placard::db::IgnoredReason;
using placard::journal::ClickJournal;
using placard::journal::ClickSink;
using placard::journal::decode_records;
using placard::journal::encode_record;

EventRecord click(unsigned char n, IgnoredReason ignored = IgnoredReason::none) {
  EventRecord e;
  e.nonce.fill(n);
  e.nonce[0] = 0xc1;
  e.offer_id = 1000 + n;
  e.placement = "popup-main";
  e.country = "DE";
  e.issued_at = 1790000000 + n;
  e.client.fill(static_cast<unsigned char>(n + 1));
  e.ignored = ignored;
  return e;
}

// The database as INSERT IGNORE on the token nonce makes it: a row per nonce, however often it
// is written. fail_after: writes that succeed before the next one throws (the database goes).
class FakeSink : public ClickSink {
 public:
  void write(const std::vector<EventRecord>& records) override {
    ++calls;
    for (const auto& r : records) {
      if (fail_before_row && rows_written == *fail_before_row) {
        throw std::runtime_error("database unreachable");
      }
      ++rows_written;
      stored.insert(std::string(reinterpret_cast<const char*>(r.nonce.data()), r.nonce.size()));
    }
  }
  std::set<std::string> stored;
  std::size_t rows_written = 0;
  std::size_t calls = 0;
  std::optional<std::size_t> fail_before_row;
};

class ClickJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/placard_journal_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path());
    return out;
  }
  ClickJournal journal(std::uint64_t max_bytes = 1 << 20) {
    return ClickJournal({(dir_ / "journal").string(), max_bytes},
                        [this](const std::string& m) { reports_.push_back(m); });
  }
  fs::path dir_;
  std::vector<std::string> reports_;
};

TEST(ClickJournalFormat, RoundTripsEveryField) {
  const auto a = click(7);
  const auto b = click(9, IgnoredReason::head);
  const auto d = decode_records(encode_record(a) + encode_record(b));
  ASSERT_EQ(d.records.size(), 2U);
  EXPECT_FALSE(d.torn_at);
  EXPECT_EQ(d.records[0].nonce, a.nonce);
  EXPECT_EQ(d.records[0].offer_id, a.offer_id);
  EXPECT_EQ(d.records[0].placement, a.placement);
  EXPECT_EQ(d.records[0].country, a.country);
  EXPECT_EQ(d.records[0].issued_at, a.issued_at);
  EXPECT_EQ(d.records[0].client, a.client);
  EXPECT_EQ(d.records[0].ignored, IgnoredReason::none);
  EXPECT_EQ(d.records[1].ignored, IgnoredReason::head);
}

TEST(ClickJournalFormat, TornOrCorruptTailIsSkippedAndReported) {
  const std::string two = encode_record(click(1)) + encode_record(click(2));
  const std::string third = encode_record(click(3));
  // A record cut short by a crash: the two whole ones are read, the rest reported.
  auto d = decode_records(two + third.substr(0, third.size() - 5));
  EXPECT_EQ(d.records.size(), 2U);
  ASSERT_TRUE(d.torn_at);
  EXPECT_EQ(*d.torn_at, two.size());
  EXPECT_EQ(d.torn_bytes, third.size() - 5);
  // A flipped byte in the payload fails the checksum.
  std::string flipped = two + third;
  flipped[two.size() + 20] ^= 0x01;
  d = decode_records(flipped);
  EXPECT_EQ(d.records.size(), 2U);
  EXPECT_TRUE(d.torn_at);
  // Only a header's worth of bytes: torn too.
  d = decode_records(third.substr(0, 6));
  EXPECT_TRUE(d.records.empty());
  EXPECT_EQ(d.torn_bytes, 6U);
}

TEST_F(ClickJournalTest, AppendsDurablyAndReplaysOnceThenRemoves) {
  auto j = journal();
  for (unsigned char i = 1; i <= 5; ++i) ASSERT_TRUE(j.append(click(i)));
  EXPECT_EQ(j.gauge().records, 5U);
  EXPECT_GT(j.gauge().bytes, 0U);
  EXPECT_EQ(fs::directory_iterator(dir_ / "journal")->path().extension(), ".jnl");
  FakeSink sink;
  const auto r = j.replay(sink);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.records, 5U);
  EXPECT_EQ(sink.stored.size(), 5U);
  EXPECT_EQ(j.gauge().records, 0U);
  EXPECT_EQ(j.gauge().bytes, 0U);
  EXPECT_TRUE(fs::is_empty(dir_ / "journal"));  // written, then removed
  // A second pass finds nothing and writes nothing.
  const auto again = j.replay(sink);
  EXPECT_EQ(again.records, 0U);
  EXPECT_EQ(sink.rows_written, 5U);
  // Appends after a replay go to a new file.
  ASSERT_TRUE(j.append(click(6)));
  EXPECT_EQ(j.replay(sink).records, 1U);
  EXPECT_EQ(sink.stored.size(), 6U);
}

TEST_F(ClickJournalTest, ReplayCutShortIsRetriedAndCountsEachClickOnce) {
  auto j = journal();
  for (unsigned char i = 1; i <= 8; ++i) ASSERT_TRUE(j.append(click(i)));
  FakeSink sink;
  sink.fail_before_row = 3;  // three rows in, then the database goes (a crash mid-replay)
  const auto r = j.replay(sink);
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(sink.stored.size(), 3U);
  EXPECT_EQ(j.gauge().records, 8U);  // kept: nothing removed
  // Clicks that come while the database is still down go to a new file.
  ASSERT_TRUE(j.append(click(9)));
  sink.fail_before_row.reset();
  const auto second = j.replay(sink);
  EXPECT_TRUE(second.error.empty()) << second.error;
  EXPECT_EQ(second.files, 2U);
  EXPECT_EQ(sink.stored.size(), 9U);  // each nonce once, the three written twice included
  EXPECT_EQ(sink.rows_written, 3U + 9U);
  EXPECT_EQ(j.gauge().records, 0U);
  EXPECT_TRUE(fs::is_empty(dir_ / "journal"));
}

TEST_F(ClickJournalTest, TornTailAfterACrashIsSkippedAndReported) {
  {
    auto j = journal();
    for (unsigned char i = 1; i <= 3; ++i) ASSERT_TRUE(j.append(click(i)));
  }  // the process ends with its file not replayed (its lock goes with it)
  ASSERT_EQ(std::distance(fs::directory_iterator(dir_ / "journal"), {}), 1);
  const auto path = fs::directory_iterator(dir_ / "journal")->path();
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << encode_record(click(4)).substr(0, 17);  // a record torn by the crash
  }
  auto next = journal();  // the next process on the host
  FakeSink sink;
  const auto r = next.replay(sink);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.records, 3U);
  EXPECT_EQ(r.torn_bytes, 17U);
  ASSERT_EQ(r.torn.size(), 1U);
  EXPECT_NE(r.torn[0].find("17 unreadable bytes"), std::string::npos) << r.torn[0];
  EXPECT_EQ(sink.stored.size(), 3U);
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(ClickJournalTest, ALiveProcesssFileIsLeftToIt) {
  auto a = journal();
  auto b = journal();  // another process on the host (flock is per open file, so the same)
  ASSERT_TRUE(a.append(click(1)));
  ASSERT_TRUE(b.append(click(2)));
  FakeSink sink;
  EXPECT_EQ(b.replay(sink).records, 1U);  // its own; a's file is locked by a
  EXPECT_EQ(sink.stored.size(), 1U);
  EXPECT_EQ(a.replay(sink).records, 1U);
  EXPECT_EQ(sink.stored.size(), 2U);
}

TEST_F(ClickJournalTest, BoundedAcrossTheHostsFiles) {
  const auto one = encode_record(click(1)).size();
  auto a = journal(5 * one);
  auto b = journal(5 * one);
  for (unsigned char i = 1; i <= 3; ++i) ASSERT_TRUE(a.append(click(i)));
  ASSERT_TRUE(b.append(click(4)));
  ASSERT_TRUE(b.append(click(5)));
  EXPECT_FALSE(b.append(click(6)));  // five records on the host: full
  EXPECT_FALSE(a.append(click(7)));
  EXPECT_EQ(a.gauge().refused, 1U);
  EXPECT_EQ(b.gauge().refused, 1U);
  ASSERT_FALSE(reports_.empty());
  EXPECT_NE(reports_.back().find("full"), std::string::npos);
  FakeSink sink;
  a.replay(sink);  // room again
  EXPECT_TRUE(b.append(click(6)));
}

TEST_F(ClickJournalTest, NoDirectoryMeansNoJournal) {
  ClickJournal off({"", 1 << 20}, {});
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(off.append(click(1)));
  // A directory that cannot be made (its parent is missing): refused and reported, not fatal.
  ClickJournal broken({(dir_ / "missing" / "journal").string(), 1 << 20},
                      [this](const std::string& m) { reports_.push_back(m); });
  EXPECT_FALSE(broken.append(click(1)));
  EXPECT_FALSE(broken.append(click(2)));
  EXPECT_EQ(reports_.size(), 1U);  // once, not per click
  EXPECT_EQ(broken.gauge().refused, 2U);
}

TEST(ClickJournalConfig, KeysDefaultsAndBounds) {
  using placard::config::server_config_from;
  const auto d = server_config_from({});
  EXPECT_EQ(d.journal_dir, "/var/lib/placard/journal");
  EXPECT_EQ(d.journal_max_bytes, 64 * 1024 * 1024);
  const auto c = server_config_from({{"journal.dir", ""}, {"journal.max_bytes", "1048576"}});
  EXPECT_EQ(c.journal_dir, "");  // no journal
  EXPECT_EQ(c.journal_max_bytes, 1048576);
  EXPECT_THROW(server_config_from({{"journal.max_bytes", "100"}}), placard::config::ConfigError);
  EXPECT_THROW(server_config_from({{"journal.max_bytes", "64M"}}), placard::config::ConfigError);
  const auto rendered = placard::config::render_server_config(c);
  EXPECT_NE(rendered.find("journal.max_bytes = 1048576\n"), std::string::npos);
}

}  // namespace
