#pragma once
#include <sys/types.h>

#include <string>

namespace placard::fcgi {

// Where the worker accepts FastCGI connections: "unix:/path" or "127.0.0.1:port".
// A unix socket is bound while the umask lets nobody but the owner in, then given `group` (a
// name or number; empty: the worker's own group) and `mode`, and only then listened on, so it
// is never connectable with wider permissions than asked for. It is made under a temporary
// name beside the path and renamed onto it once it listens, so a socket at the path always takes
// connections (a stale socket file there is replaced; any other file is an error). Throws on any
// failure.
struct ListenSocket {
  int fd = -1;
  std::string path;  // a unix socket's file ("": none, e.g. TCP)
  dev_t dev = 0;     // that file as made (lstat after the rename)
  ino_t ino = 0;
};
ListenSocket open_listen_socket(const std::string& listen, unsigned mode, const std::string& group);

// Unlinks the socket's file when its path still names the file made: a worker started later on
// the same path replaced it, and that worker's socket stays. Nothing for a socket without a file.
void remove_socket_file(const ListenSocket& socket);

}  // namespace placard::fcgi
