// The bare FastCGI baseline of `make bench`: a minimal multi-threaded libfcgi program, nothing
// of Placard's (no pool, no router, no log), answering every request with the same 1 KiB JSON
// body. Measured through the same web server and the same kind of unix socket as the worker, its
// rate is the physical limit of a FastCGI answer on the machine, and every ratio in the bench
// report is against it (docs/performance.md).
//
// usage: bare_fcgi SOCKET_PATH THREADS [GROUP] [--journal FILE]
//   creates the unix socket (mode 0660, group GROUP if given) and serves until SIGTERM/SIGINT.
//   --journal FILE: the durable baseline. A POST's body (up to 4 KiB) is appended to FILE as a
//   line and made durable with fdatasync, shared by every body that arrived meanwhile (group
//   commit, group_commit.h), before the answer {"recorded":true}; 503 if the file cannot be
//   written. What any design that answers an event only once it is on disk must pay at least.
//
// Each thread: FCGX_Accept_r, write the answer, FCGX_Finish_r. The only thing beyond the
// textbook loop is how the connection is closed: libfcgi's own close shuts the sending side
// down and waits up to 2 s for the web server to close first, a sleep and a wake-up per
// request; once all input has been read on a unix socket nothing can be lost, so a careful
// program detaches and closes at once (the worker does the same, fcgi-app/worker_pool.cpp).
#include <fcgiapp.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "group_commit.h"

// SIGTERM/SIGINT end the process at once. FCGX_Init installs libfcgi's own SIGTERM handler, which
// only marks a shutdown: the threads waiting in accept() went on waiting, and the bench waited
// 10 s for them before it sent SIGKILL. Nothing here is left to flush or close.
extern "C" void end_now(int /*signal*/) {
  std::_Exit(0);
}

namespace {

// A whole CGI answer: status line, headers, body.
std::string cgi_answer(const char* status, const std::string& body) {
  return std::string("Status: ") + status +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

const std::string& answer() {
  static const std::string a =
      cgi_answer("200 OK", "{\"echo\":\"" + std::string(1024 - 12, 'x') + "\"}");
  return a;
}

constexpr int kMaxBody = 4096;

const std::string& recorded() {
  static const std::string a = cgi_answer("200 OK", "{\"recorded\":true}");
  return a;
}

const std::string& unavailable() {
  static const std::string a = cgi_answer("503 Service Unavailable", "{\"error\":\"journal\"}");
  return a;
}

// The answer to one request: the 1 KiB body, or with a journal a POST's body made durable first.
const std::string& answer_to(FCGX_Request& request, bare::GroupCommit* journal,
                             bare::GroupCommit::Waiter& me, std::string& line) {
  const char* method = FCGX_GetParam("REQUEST_METHOD", request.envp);
  if (journal == nullptr || method == nullptr || std::strcmp(method, "POST") != 0) return answer();
  line.resize(kMaxBody);
  const int n = FCGX_GetStr(line.data(), kMaxBody, request.in);
  line.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  line.push_back('\n');
  return journal->append(line, me) ? recorded() : unavailable();
}

void serve(int fd, bare::GroupCommit* journal) {
  FCGX_Request request{};
  FCGX_InitRequest(&request, fd, FCGI_FAIL_ACCEPT_ON_INTR);
  std::string line;
  bare::GroupCommit::Waiter me;
  char extra = 0;
  while (FCGX_Accept_r(&request) >= 0) {
    const std::string& a = answer_to(request, journal, me, line);
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
  const char* usage = "usage: bare_fcgi SOCKET_PATH THREADS [GROUP] [--journal FILE]\n";
  if (argc < 3) {
    std::fputs(usage, stderr);
    return 2;
  }
  const std::string path = argv[1];
  char* end = nullptr;
  const long threads = std::strtol(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0' || threads < 1 || threads > 1024) {
    std::fputs("bare_fcgi: THREADS must be 1..1024\n", stderr);
    return 2;
  }
  const char* group_name = nullptr;
  const char* journal_path = nullptr;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--journal") == 0 && i + 1 < argc && journal_path == nullptr) {
      journal_path = argv[++i];
    } else if (argv[i][0] != '-' && group_name == nullptr) {
      group_name = argv[i];
    } else {
      std::fputs(usage, stderr);
      return 2;
    }
  }
  std::signal(SIGPIPE, SIG_IGN);
  FCGX_Init();  // before our handlers, which replace its own
  std::signal(SIGTERM, end_now);
  std::signal(SIGINT, end_now);
  // The journal's descriptor lives until the process ends (SIGTERM: _Exit, nothing to flush).
  const int journal_fd =
      journal_path == nullptr
          ? -1
          : ::open(journal_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (journal_path != nullptr && journal_fd < 0) {
    std::perror("bare_fcgi: open --journal");
    return 1;
  }
  ::unlink(path.c_str());
  const int fd = FCGX_OpenSocket(path.c_str(), 1024);
  if (fd < 0) {
    std::perror("bare_fcgi: FCGX_OpenSocket");
    return 1;
  }
  if (group_name != nullptr) {
    const group* g = ::getgrnam(group_name);  // NOLINT(concurrency-mt-unsafe): before any thread
    if (g == nullptr || ::chown(path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0) {
      std::fprintf(stderr, "bare_fcgi: cannot give %s to group %s\n", path.c_str(), group_name);
      return 1;
    }
  }
  ::chmod(path.c_str(), 0660);
  std::optional<bare::GroupCommit> journal;
  if (journal_fd >= 0) journal.emplace(journal_fd);
  bare::GroupCommit* durable = journal ? &*journal : nullptr;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (long i = 0; i < threads; ++i) pool.emplace_back(serve, fd, durable);
  for (auto& t : pool) t.join();
  return 0;
}
