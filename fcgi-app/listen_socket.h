#pragma once
#include <string>

namespace placard::fcgi {

// Where the worker accepts FastCGI connections: "unix:/path" or "127.0.0.1:port".
// A unix socket is bound while the umask lets nobody but the owner in, then given `group` (a
// name or number; empty: the worker's own group) and `mode`, and only then listened on, so it
// is never connectable with wider permissions than asked for. Throws on any failure.
int open_listen_socket(const std::string& listen, unsigned mode, const std::string& group);

}  // namespace placard::fcgi
