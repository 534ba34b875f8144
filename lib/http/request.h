#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/http/header.h"

namespace placard::http {

// A web request as a plain value, independent of FastCGI. The adapter fills it; tests build it.
struct Request {
  std::string method;  // upper-case, e.g. "GET"
  std::string path;    // from REQUEST_URI, without the query string, not decoded
  std::string query;   // raw query string, without '?'
  Headers headers;     // lower-case names
  std::string remote_addr;
  bool https = false;
  std::string request_id;

  // The body is read lazily so that limits can be checked first (413 before reading).
  std::optional<std::size_t> content_length;
  std::function<std::string(std::size_t)> body_reader;  // reads exactly n bytes (or fewer at EOF)
  std::string body;  // set directly by tests, or filled by load_body()

  // Path parameters set by the router (e.g. "offerId").
  std::vector<std::pair<std::string, std::string>> params;

  std::string_view header(std::string_view lower_name) const {
    return find_header(headers, lower_name);
  }
  bool has(std::string_view lower_name) const { return has_header(headers, lower_name); }
  std::string_view param(std::string_view name) const;
  // First value of a query parameter, percent-decoded ('+' is a space); nullopt when absent
  // or when its encoding is broken.
  std::optional<std::string> query_param(std::string_view name) const;
  // Reads the body through body_reader once (no-op when there is none).
  const std::string& load_body();

 private:
  bool body_loaded_ = false;
};

// Percent-decoding of a query component; nullopt for a malformed escape.
std::optional<std::string> percent_decode(std::string_view in, bool plus_is_space);

}  // namespace placard::http
