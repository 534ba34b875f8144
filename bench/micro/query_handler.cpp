// The offers query handler alone: api::query_offers in a loop, one thread, no FastCGI, no web
// server, over the catalog of a running stack and a file of request bodies. It tells how much of
// a query's cost in `make bench` is the handler's own work (docs/performance.md).
//
//   BENCH_KEEP=1 make bench                  # leaves the benchmark's stack and data in place
//   make bench-handler                       # or: build/bench-query-handler CONFIG BODIES [N]

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "lib/api/offers_query.h"
#include "lib/config/server_config.h"
#include "lib/crypto/random_pool.h"
#include "lib/db/connection_params.h"
#include "lib/db/mysql_session.h"
#include "lib/http/response.h"
#include "lib/store/catalog_loader.h"
#include "lib/tokens/key_ring.h"
#include "lib/util/fast_rng.h"
#include "lib/util/time_format.h"

namespace {

using placard::api::query_offers;
using placard::http::Request;

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

int run(const std::string& config_path, const std::string& bodies_path, int rounds) {
  const auto cfg = placard::config::load_server_config(config_path);
  placard::db::init_driver();
  const placard::db::DriverThreadScope scope;
  placard::db::MysqlSession session(placard::db::runtime_params(cfg));
  std::vector<std::string> problems;
  const auto snapshot = placard::db::load_snapshot(session, placard::util::unix_now(), problems);
  const auto keys = placard::tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  const auto bodies = read_lines(bodies_path);
  if (bodies.empty()) {
    std::fprintf(stderr, "no request bodies in %s\n", bodies_path.c_str());
    return 2;
  }
  placard::tokens::MacWorkspace macs;
  placard::util::FastRng rng;
  placard::crypto::RandomPool nonces;
  const auto now = placard::util::unix_now();
  const int per_round = 200000;
  std::printf("%zu live offers, %zu request bodies\n", snapshot->offers.size(), bodies.size());
  for (int round = 0; round < rounds; ++round) {
    std::size_t bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < per_round; ++i) {
      Request request;
      request.method = "POST";
      request.path = "/api/v1/offers/query";
      request.headers.push_back({"content-type", "application/json"});
      request.body = bodies[static_cast<std::size_t>(i) % bodies.size()];
      request.content_length = request.body.size();
      const auto response = query_offers(request, *snapshot, keys, macs, rng, nonces, now);
      bytes += response.body.size();
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    std::printf("round %d: %.2f us per query, %zu bytes per answer\n", round + 1,
                took.count() / per_round, bytes / per_round);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CONFIG BODIES [ROUNDS]\n", argv[0]);
    return 2;
  }
  try {
    return run(argv[1], argv[2], argc > 3 ? std::stoi(argv[3]) : 3);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-query-handler: %s\n", e.what());
    return 1;
  }
}
