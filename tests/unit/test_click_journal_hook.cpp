// The click handler while the database is down (issue 25): a click the snapshot shows valid is
// handed to the click journal (ClickStore::keep_for_later) and redirected as usual; the
// snapshot's refusals stand; no journal (or a full one) leaves the 503.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/api/clicks.h"
#include "lib/crypto/base64.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/tokens/token.h"

namespace {

using placard::catalog::Snapshot;
using placard::db::DatabaseUnavailable;
using placard::db::EventRecord;
using placard::db::IgnoredReason;
using placard::http::ApiError;
using placard::http::Request;
using placard::tokens::KeyRing;
using placard::tokens::TokenClaims;
using placard::tokens::TokenKind;

constexpr std::int64_t kNow = 1'800'000'000;

KeyRing keys() {
  return KeyRing::parse("k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
}

std::string click_token(std::uint64_t offer, char nonce) {
  TokenClaims c;
  c.kind = TokenKind::click;
  c.nonce.fill(static_cast<unsigned char>(nonce));
  c.issued_at = kNow;
  c.offer_id = offer;
  c.placement = "popup-main";
  c.country = "DE";
  return placard::tokens::sign_token(keys(), c);
}

placard::api::ClientHasher& hasher() {
  static const placard::http::TrustedProxies none;
  static placard::api::ClientHasher h(none, "day secret");
  return h;
}

// The database is unreachable; the journal takes clicks while `accepting`.
class DownClicks : public placard::db::ClickStore {
 public:
  std::optional<placard::db::OfferTarget> follow(std::uint64_t, const Decide&) override {
    throw DatabaseUnavailable("database unreachable: connection refused");
  }
  void record_ignored(const EventRecord&) override {
    throw DatabaseUnavailable("database unreachable: connection refused");
  }
  bool keep_for_later(const EventRecord& e) override {
    if (!accepting) return false;
    kept.push_back(e);
    return true;
  }
  bool accepting = true;
  std::vector<EventRecord> kept;
};

void add_target(Snapshot& s, std::uint64_t id, bool enabled, std::int64_t valid_until,
                const std::string& url) {
  placard::catalog::ClickTarget t;
  t.id = id;
  t.enabled = enabled;
  t.network = placard::catalog::ClickTarget::Network::admitad;
  t.valid_until = valid_until;
  t.has_url = true;
  t.url_offset = static_cast<std::uint32_t>(s.click_urls.size());
  t.url_len = static_cast<std::uint16_t>(url.size());
  s.click_urls += url;
  s.click_targets.push_back(t);
}

Request click(std::uint64_t id, char nonce, const std::string& method = "GET") {
  Request r;
  r.method = method;
  r.path = "/r/click/" + std::to_string(id);
  r.query = "t=" + click_token(id, nonce);
  r.params = {{"offerId", std::to_string(id)}};
  return r;
}

class ClickJournalHook : public ::testing::Test {
 protected:
  void SetUp() override {
    add_target(snapshot_, 42, true, placard::catalog::kOpenEnd, "https://ad.example/go?x=1");
    add_target(snapshot_, 43, false, placard::catalog::kOpenEnd, "https://ad.example/off");
    add_target(snapshot_, 44, true, kNow - 1, "https://ad.example/ended");
  }
  std::string answer(Request r) {
    try {
      const auto res = placard::api::follow_click(r, snapshot_, keys_, clicks_, hasher(), kNow);
      return std::to_string(res.status) + " " + std::string(res.header("Location"));
    } catch (const ApiError& e) {
      return std::to_string(e.status()) + " " + e.code();
    } catch (const DatabaseUnavailable&) {
      return "503";  // what api::Service answers for it
    }
  }
  Snapshot snapshot_;
  KeyRing keys_ = keys();
  DownClicks clicks_;
};

TEST_F(ClickJournalHook, AValidClickIsKeptAndRedirectedAsUsual) {
  std::string nonce_hex;
  for (int i = 0; i < 16; ++i) nonce_hex += "61";  // the nonce bytes are 'a' (0x61)
  EXPECT_EQ(answer(click(42, 'a')), "302 https://ad.example/go?x=1&subid=" + nonce_hex);
  ASSERT_EQ(clicks_.kept.size(), 1U);
  EXPECT_EQ(clicks_.kept[0].offer_id, 42U);
  EXPECT_EQ(clicks_.kept[0].placement, "popup-main");
  EXPECT_EQ(clicks_.kept[0].ignored, IgnoredReason::none);
  EXPECT_NE(clicks_.kept[0].client, placard::db::ClientHash{});  // judged by the rollup later
}

TEST_F(ClickJournalHook, HeadIsKeptAsAnIgnoredClick) {
  EXPECT_EQ(answer(click(42, 'b', "HEAD")).substr(0, 3), "302");
  ASSERT_EQ(clicks_.kept.size(), 1U);
  EXPECT_EQ(clicks_.kept[0].ignored, IgnoredReason::head);
}

TEST_F(ClickJournalHook, TheSnapshotsRefusalsStandAndNothingIsKept) {
  EXPECT_EQ(answer(click(43, 'c')), "410 offer_unavailable");  // disabled
  EXPECT_EQ(answer(click(44, 'd')), "410 offer_unavailable");  // ended
  EXPECT_EQ(answer(click(99, 'e')), "404 not_found");          // unknown
  EXPECT_TRUE(clicks_.kept.empty());
}

TEST_F(ClickJournalHook, NoRoomInTheJournalLeavesThe503) {
  clicks_.accepting = false;
  EXPECT_EQ(answer(click(42, 'f')), "503");
  EXPECT_EQ(answer(click(42, 'g', "HEAD")), "503");
}

}  // namespace
