#pragma once
// The CGI gateway format, shared by FastCGI and plain CGI (no libfcgi here): the gateway's
// parameters into an http::Request, an http::Response into CGI response bytes.
#include <string>

#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/util/fast_rng.h"

namespace placard::http {

// envp: "NAME=value" strings as FastCGI (FCGX_Request::envp) and CGI (environ) both give them.
// Copies everything: FastCGI parameter memory dies at the next accept.
Request request_from_envp(char** envp);

// "Status: ...", headers, Content-Length, blank line, then the body (none for HEAD/204/304).
std::string render_response(const Response& response, bool head);
// The same in two parts, so the body can be written without being copied: the head, and
// whether the body follows it.
std::string render_response_head(const Response& response);
bool response_has_body(const Response& response, bool head);

// The caller's X-Request-Id when it is a sane token (1..64 of [A-Za-z0-9._-]), else a new one.
std::string choose_request_id(const Request& request, util::FastRng& rng);

}  // namespace placard::http
