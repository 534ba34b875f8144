#pragma once

// Base64 (RFC 4648 section 4, padded) and base64url (section 5, unpadded) codecs.
// Encoding and decoding are done by OpenSSL (EVP_EncodeBlock / EVP_DecodeBlock); this module
// translates alphabets and enforces a strict, canonical grammar on input, so that every byte
// string has exactly one accepted text form (tokens rely on this: no malleable encodings).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace placard::crypto {

// Unpadded base64url ("-" and "_"), e.g. "QUI" for "AB".
std::string base64url_encode(std::string_view bytes);

// Appends the unpadded base64url text of `bytes` to `out` (no other allocation than out's growth).
void base64url_encode_append(std::string& out, std::string_view bytes);

// Number of characters base64url_encode produces for `n` bytes.
constexpr std::size_t base64url_encoded_size(std::size_t n) {
  return (n / 3) * 4 + (n % 3 == 0 ? 0 : n % 3 + 1);
}

// Strict unpadded base64url. nullopt on: padding, "+", "/", whitespace or any other character
// outside [A-Za-z0-9_-], a length of 4k+1, or non-zero unused bits in the last character.
std::optional<std::string> base64url_decode(std::string_view text);

// Decoded size of a valid base64url text of `n` characters (n % 4 != 1).
constexpr std::size_t base64url_decoded_size(std::size_t n) {
  return (n / 4) * 3 + (n % 4) * 3 / 4;
}

// Strict unpadded base64url decode into `out` without heap allocation. Returns the number of
// bytes written, or nullopt when the text is not valid (as above) or `out` is too small.
std::optional<std::size_t> base64url_decode_into(std::string_view text,
                                                 std::span<unsigned char> out);

// Standard alphabet ("+" and "/") with "=" padding, e.g. "QUI=" for "AB".
std::string base64_encode(std::string_view bytes);

// Strict standard base64: length a multiple of 4, "=" only as the last one or two characters and
// only as required, no whitespace, non-zero unused bits rejected. nullopt when invalid.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace placard::crypto
