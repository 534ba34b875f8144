// The bare FastCGI baseline of `make bench`: a minimal multi-threaded libfcgi program, nothing
// of Placard's (no pool, no router, no log), answering every request with the same 1 KiB JSON
// body. Measured through the same web server and the same kind of unix socket as the worker, its
// rate is the physical limit of a FastCGI answer on the machine, and every ratio in the bench
// report is against it (docs/performance.md).
//
// usage: bare_fcgi SOCKET_PATH THREADS [GROUP]
//   creates the unix socket (mode 0660, group GROUP if given) and serves until SIGTERM/SIGINT.
//
// Each thread: FCGX_Accept_r, write the answer, FCGX_Finish_r. The only thing beyond the
// textbook loop is how the connection is closed: libfcgi's own close shuts the sending side
// down and waits up to 2 s for the web server to close first, a sleep and a wake-up per
// request; once all input has been read on a unix socket nothing can be lost, so a careful
// program detaches and closes at once (the worker does the same, fcgi-app/worker_pool.cpp).
#include <fcgiapp.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

// SIGTERM/SIGINT end the process at once. FCGX_Init installs libfcgi's own SIGTERM handler, which
// only marks a shutdown: the threads waiting in accept() went on waiting, and the bench waited
// 10 s for them before it sent SIGKILL. Nothing here is left to flush or close.
extern "C" void end_now(int /*signal*/) {
  std::_Exit(0);
}

namespace {

const std::string& answer() {
  static const std::string a = [] {
    const std::string body = "{\"echo\":\"" + std::string(1024 - 12, 'x') + "\"}";
    return "Status: 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }();
  return a;
}

void serve(int fd) {
  FCGX_Request request{};
  FCGX_InitRequest(&request, fd, FCGI_FAIL_ACCEPT_ON_INTR);
  const std::string& a = answer();
  char extra = 0;
  while (FCGX_Accept_r(&request) >= 0) {
    FCGX_PutStr(a.data(), static_cast<int>(a.size()), request.out);
    FCGX_FClose(request.err);
    const bool sent = FCGX_FClose(request.out) == 0;
    if (sent && request.keepConnection == 0 && FCGX_GetStr(&extra, 1, request.in) == 0 &&
        FCGX_HasSeenEOF(request.in) == EOF && FCGX_GetError(request.in) == 0) {
      FCGX_Detach(&request);
    }
    FCGX_Finish_r(&request);
  }
  FCGX_Free(&request, 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fputs("usage: bare_fcgi SOCKET_PATH THREADS [GROUP]\n", stderr);
    return 2;
  }
  const std::string path = argv[1];
  char* end = nullptr;
  const long threads = std::strtol(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0' || threads < 1 || threads > 1024) {
    std::fputs("bare_fcgi: THREADS must be 1..1024\n", stderr);
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  FCGX_Init();  // before our handlers, which replace its own
  std::signal(SIGTERM, end_now);
  std::signal(SIGINT, end_now);
  ::unlink(path.c_str());
  const int fd = FCGX_OpenSocket(path.c_str(), 1024);
  if (fd < 0) {
    std::perror("bare_fcgi: FCGX_OpenSocket");
    return 1;
  }
  if (argc == 4) {
    const group* g = ::getgrnam(argv[3]);  // NOLINT(concurrency-mt-unsafe): before any thread
    if (g == nullptr || ::chown(path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0) {
      std::fprintf(stderr, "bare_fcgi: cannot give %s to group %s\n", path.c_str(), argv[3]);
      return 1;
    }
  }
  ::chmod(path.c_str(), 0660);
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (long i = 0; i < threads; ++i) pool.emplace_back(serve, fd);
  for (auto& t : pool) t.join();
  return 0;
}
