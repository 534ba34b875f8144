#include "fcgi-app/options.h"

#include <cstdlib>
#include <stdexcept>

#include "lib/util/parse_int.h"

namespace placard::fcgi {

namespace {

int count_in(const std::string& name, const std::string& text, int lo, int hi) {
  const auto n = util::parse_int_in<int>(text, lo, hi);
  if (!n) {
    throw std::invalid_argument(name + " must be a number from " + std::to_string(lo) + " to " +
                                std::to_string(hi));
  }
  return *n;
}

}  // namespace

void usage(std::FILE* out) {
  std::fputs(
      "usage: placard.fcgi [--config PATH] [--listen unix:PATH|127.0.0.1:PORT] [--threads N]\n"
      "                    [--socket-group GROUP] [--processes N] [--bench-echo]\n"
      "       placard.fcgi --version\n"
      "  --config PATH   server config (default: $PLACARD_CONFIG or /etc/placard/placard.conf)\n"
      "  --listen ADDR   where to accept FastCGI connections (default: the config's `listen`,\n"
      "                  or $PLACARD_LISTEN; none: the socket on fd 0, or plain CGI)\n"
      "  --threads N     turns at accept() (4N handlers; default: the config's `threads`, or\n"
      "                  $PLACARD_THREADS)\n"
      "  --socket-group G  group of the unix socket (default: the config's `socket_group`)\n"
      "  --processes N   N worker processes (1..64) on the one listening socket, each with its\n"
      "                  threads, under this process, which starts a new one when one dies\n"
      "  --bench-echo    answer every request with a fixed 1 KiB JSON body (benchmark baseline)\n",
      out);
}

std::optional<Options> parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--config") {
      o.config_path = value();
    } else if (a == "--listen") {
      o.listen = value();
    } else if (a == "--threads") {
      o.threads = count_in(a, value(), 1, 256);
    } else if (a == "--socket-group") {
      o.socket_group = value();
    } else if (a == "--processes") {
      o.processes = count_in(a, value(), 1, 64);
    } else if (a == "--bench-echo") {
      o.bench_echo = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      return std::nullopt;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  return o;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): before any thread starts
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::string listen_address(const Options& opt, const std::string& fallback) {
  return !opt.listen.empty() ? opt.listen : env_or("PLACARD_LISTEN", fallback);
}

int thread_count(const Options& opt, int fallback) {
  if (opt.threads > 0) return opt.threads;
  return count_in("PLACARD_THREADS", env_or("PLACARD_THREADS", std::to_string(fallback)), 1, 256);
}

}  // namespace placard::fcgi
