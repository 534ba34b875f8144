#pragma once
#include <string>

namespace placard::fcgi {

// Where the worker accepts FastCGI connections: "unix:/path" or "127.0.0.1:port".
// A unix socket is bound while the umask lets nobody but the owner in, then given `group` (a
// name or number; empty: the worker's own group) and `mode`, and only then listened on, so it
// is never connectable with wider permissions than asked for. It is made under a temporary
// name beside the path and renamed onto it once it listens, so a socket at the path always takes
// connections (a stale socket file there is replaced; any other file is an error). Throws on any
// failure.
int open_listen_socket(const std::string& listen, unsigned mode, const std::string& group);

}  // namespace placard::fcgi
