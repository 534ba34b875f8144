// Which node of db.host a new connection tries first (lib/db/node_skips.h), and the session
// walking the list (lib/db/mysql_session.cpp) against ports that refuse or never answer.
#include "lib/db/node_skips.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "lib/db/mysql_session.h"

using placard::db::NodeSkips;
using std::chrono::milliseconds;

namespace {

NodeSkips::Clock::time_point at(int ms) {
  return NodeSkips::Clock::time_point{} + milliseconds(ms);
}

std::vector<std::string> nodes() {
  return {"tcp://g1:3306", "tcp://g2:3306", "tcp://g3:3306"};
}

TEST(NodeSkips, InOrderWhileNoneFailed) {
  NodeSkips s(milliseconds(10000));
  EXPECT_EQ(s.order(nodes(), at(0)), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(NodeSkips, AFailedNodeIsTriedLastForTheSkipThenInItsPlaceAgain) {
  NodeSkips s(milliseconds(10000));
  s.failed("tcp://g1:3306", at(1000));
  EXPECT_TRUE(s.skipping("tcp://g1:3306", at(1000)));
  EXPECT_EQ(s.order(nodes(), at(1000)), (std::vector<std::size_t>{1, 2, 0}));
  EXPECT_EQ(s.order(nodes(), at(10999)), (std::vector<std::size_t>{1, 2, 0}));
  EXPECT_EQ(s.order(nodes(), at(11000)), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_FALSE(s.skipping("tcp://g1:3306", at(11000)));
}

TEST(NodeSkips, EverySkippedNodeIsStillTriedTheOneThatFailedLongestAgoFirst) {
  NodeSkips s(milliseconds(10000));
  s.failed("tcp://g2:3306", at(0));
  s.failed("tcp://g1:3306", at(5));
  EXPECT_EQ(s.order(nodes(), at(10)), (std::vector<std::size_t>{2, 1, 0}));
  s.failed("tcp://g3:3306", at(20));
  EXPECT_EQ(s.order(nodes(), at(30)), (std::vector<std::size_t>{1, 0, 2}));
  // g1 fails again and again (a node outside the primary component takes connections and fails
  // the first statement), g2 failed once, earlier: g2 is tried before g1.
  s.failed("tcp://g1:3306", at(40));
  EXPECT_EQ(s.order({"tcp://g1:3306", "tcp://g2:3306"}, at(50)), (std::vector<std::size_t>{1, 0}));
  // One node only: always tried, as before db.host could list several.
  EXPECT_EQ(s.order({"tcp://g1:3306"}, at(30)), std::vector<std::size_t>{0});
}

TEST(NodeSkips, AFailureAgainRestartsTheSkip) {
  NodeSkips s(milliseconds(10000));
  s.failed("tcp://g1:3306", at(2));
  s.failed("tcp://g1:3306", at(9000));
  EXPECT_TRUE(s.skipping("tcp://g1:3306", at(18999)));
  EXPECT_FALSE(s.skipping("tcp://g1:3306", at(19000)));
}

// A TCP socket on 127.0.0.1: listening (accepts, never speaks) or bound and closed (refuses).
class Port {
 public:
  explicit Port(bool listen) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), len), 0);
    EXPECT_EQ(getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len), 0);
    port_ = ntohs(a.sin_port);
    if (listen) {
      EXPECT_EQ(::listen(fd_, 8), 0);
    } else {
      close(fd_);  // nothing listens there now: refused
      fd_ = -1;
    }
  }
  ~Port() {
    if (fd_ >= 0) close(fd_);
  }
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;
  std::string entry() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string url() const { return "tcp://" + entry(); }

 private:
  int fd_;
  int port_ = 0;
};

placard::db::ConnectionParams list_of(const std::vector<const Port*>& ports) {
  placard::db::ConnectionParams p;
  p.host.clear();
  for (const auto* port : ports) p.host += (p.host.empty() ? "" : ",") + port->entry();
  p.user = "nobody";
  p.skips = std::make_shared<NodeSkips>();
  return p;
}

TEST(NodeSkipsSession, EveryNodeIsTriedAndEachFailureIsSkippedByTheNextSession) {
  placard::db::init_driver();
  const Port a(false);
  const Port b(false);
  const auto params = list_of({&a, &b});
  {
    placard::db::MysqlSession s(params);
    try {
      (void)s.connection();
      FAIL() << "connected to a closed port";
    } catch (const sql::SQLException& e) {
      EXPECT_TRUE(placard::db::MysqlSession::is_connection_error(e.getErrorCode()))
          << e.getErrorCode();
    }
  }
  const auto now = NodeSkips::Clock::now();
  EXPECT_TRUE(params.skips->skipping(a.url(), now));  // shared by copies of the params
  EXPECT_TRUE(params.skips->skipping(b.url(), now));
}

TEST(NodeSkipsSession, ANodeThatNeverAnswersCostsTheConnectTimeoutNotTheReadTimeout) {
  placard::db::init_driver();
  const Port silent(true);
  const Port refused(false);
  auto params = list_of({&silent, &refused});
  params.io_timeout_seconds = 30;
  placard::db::MysqlSession s(params);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW((void)s.connection(), sql::SQLException);
  const auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(took, std::chrono::seconds(6));
  EXPECT_TRUE(params.skips->skipping(silent.url(), NodeSkips::Clock::now()));
  EXPECT_TRUE(params.skips->skipping(refused.url(), NodeSkips::Clock::now()));
}

}  // namespace
