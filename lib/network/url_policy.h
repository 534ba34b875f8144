#pragma once
#include <string>
#include <string_view>

namespace placard::network {

// Where the server may send a network request (contract section 8): https:// to any host, or
// http:// only to a loopback host (127.0.0.0/8, ::1, localhost) — for tests. Nothing else: no
// other scheme, no user information, no whitespace or control characters.
bool allowed_url(std::string_view url);

// The host of an http(s) URL, lower-cased, brackets of an IPv6 literal removed; empty when the
// URL has no parsable authority.
std::string url_host(std::string_view url);

bool is_loopback_host(std::string_view host);

// An offer's tracking URL, where a click redirects the visitor: one rule for the offers the
// admin API creates and those the importer writes. http:// or https:// (any case), a host, no
// user information (`https://shop.example@evil.example/` goes to evil.example), no whitespace,
// control characters or backslashes (browsers read `\\` as `/` in the authority; we would not).
bool offer_url_allowed(std::string_view url);

// A base URL of the config file (network.*.api_base): allowed_url, no query or fragment; the
// trailing '/' removed.
bool valid_api_base(std::string_view url);
std::string normalize_api_base(std::string_view url);

}  // namespace placard::network
