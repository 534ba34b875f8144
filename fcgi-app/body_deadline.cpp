#include "fcgi-app/body_deadline.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>

namespace placard::fcgi {

namespace {

using Clock = std::chrono::steady_clock;

// How long one read(2) on fd may block (zero: without limit).
void set_read_timeout(int fd, std::chrono::microseconds limit) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(limit.count() / 1000000);
  tv.tv_usec = static_cast<suseconds_t>(limit.count() % 1000000);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

// Bytes libfcgi already holds for the reader: taking them never reads from the socket.
std::size_t buffered(const FCGX_Stream* in) {
  return in->rdNext < in->stop ? static_cast<std::size_t>(in->stop - in->rdNext) : 0;
}

}  // namespace

// libfcgi's FCGX_GetStr keeps reading until it has every byte asked for, so a body trickling
// in would hold it for as long as the client likes. Here it is only ever asked for what it has
// buffered, or for one byte when it has nothing: then it makes one read of whatever the web
// server has forwarded (one FastCGI record), bounded by SO_RCVTIMEO set to the time left.
std::optional<std::string> read_body_by(FCGX_Request& request, std::size_t n,
                                        Clock::time_point deadline,
                                        const std::function<void(bool)>& on_wait) {
  std::string body(n, '\0');
  std::size_t got = 0;
  bool timed_out = false;
  while (got < n) {
    std::size_t want = std::min(buffered(request.in), n - got);
    if (want == 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      set_read_timeout(request.ipcFd, std::max(left, std::chrono::microseconds(1000)));
      want = 1;
    }
    const bool may_wait = want == 1 && buffered(request.in) == 0;
    if (may_wait && on_wait) on_wait(true);
    const int r = FCGX_GetStr(body.data() + got, static_cast<int>(want), request.in);
    if (may_wait && on_wait) on_wait(false);
    if (r <= 0) {
      const int error = FCGX_GetError(request.in);
      timed_out = error == EAGAIN || error == EWOULDBLOCK || Clock::now() >= deadline;
      break;  // otherwise the input ended early: the handler judges the short body
    }
    got += static_cast<std::size_t>(r);
  }
  // The limit stays: the connection ends with this request (the pool never keeps one,
  // worker_pool.cpp), and its last read, of the end-of-input record, is bounded by it too.
  // Taking it off again was a second setsockopt on every POST whose body was not already in
  // libfcgi's buffer, that is nearly every one (issue 24).
  if (timed_out) return std::nullopt;
  body.resize(got);
  return body;
}

}  // namespace placard::fcgi
