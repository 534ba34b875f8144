#include "lib/journal/record_format.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace placard::journal {

namespace {

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(std::string_view bytes, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) {
    v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  }
  return v;
}

std::uint32_t crc_of(std::string_view bytes) {
  return static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0),
                                          reinterpret_cast<const Bytef*>(bytes.data()),
                                          static_cast<uInt>(bytes.size())));
}

void put_short_string(std::string& out, std::string_view s) {
  const auto n = std::min<std::size_t>(s.size(), 255);
  out.push_back(static_cast<char>(n));
  out.append(s.substr(0, n));
}

// Reads the payload into e; false when it is malformed.
bool parse_payload(std::string_view p, db::EventRecord& e) {
  constexpr std::size_t kFixed = 1 + 16 + 8 + 8 + 16;
  if (p.size() < kFixed + 2) return false;
  const auto reason = static_cast<unsigned char>(p[0]);
  if (reason > static_cast<unsigned char>(db::IgnoredReason::rate_limited)) return false;
  e.ignored = static_cast<db::IgnoredReason>(reason);
  std::memcpy(e.nonce.data(), p.data() + 1, 16);
  e.offer_id = get_le(p, 17, 8);
  e.issued_at = static_cast<std::int64_t>(get_le(p, 25, 8));
  std::memcpy(e.client.data(), p.data() + 33, 16);
  std::size_t at = kFixed;
  const std::size_t placement_len = static_cast<unsigned char>(p[at++]);
  if (at + placement_len + 1 > p.size()) return false;
  e.placement.assign(p.substr(at, placement_len));
  at += placement_len;
  const std::size_t country_len = static_cast<unsigned char>(p[at++]);
  if (at + country_len != p.size()) return false;
  e.country.assign(p.substr(at, country_len));
  return true;
}

}  // namespace

std::string encode_record(const db::EventRecord& e) {
  std::string payload;
  payload.reserve(64 + e.placement.size() + e.country.size());
  payload.push_back(static_cast<char>(e.ignored));
  payload.append(reinterpret_cast<const char*>(e.nonce.data()), e.nonce.size());
  put_u64(payload, e.offer_id);
  put_u64(payload, static_cast<std::uint64_t>(e.issued_at));
  payload.append(reinterpret_cast<const char*>(e.client.data()), e.client.size());
  put_short_string(payload, e.placement);
  put_short_string(payload, e.country);
  std::string out(kMagic);
  put_u32(out, static_cast<std::uint32_t>(payload.size()));
  put_u32(out, crc_of(payload));
  out += payload;
  return out;
}

Decoded decode_records(std::string_view bytes) {
  Decoded d;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const auto rest = bytes.substr(at);
    bool ok = rest.size() >= kHeaderBytes && rest.substr(0, 4) == kMagic;
    std::size_t len = 0;
    if (ok) {
      len = static_cast<std::size_t>(get_le(rest, 4, 4));
      ok = len <= kMaxPayload && rest.size() >= kHeaderBytes + len &&
           crc_of(rest.substr(kHeaderBytes, len)) == static_cast<std::uint32_t>(get_le(rest, 8, 4));
    }
    db::EventRecord e;
    if (ok) ok = parse_payload(rest.substr(kHeaderBytes, len), e);
    if (!ok) {
      d.torn_at = at;
      d.torn_bytes = rest.size();
      break;
    }
    d.records.push_back(std::move(e));
    at += kHeaderBytes + len;
  }
  return d;
}

}  // namespace placard::journal
