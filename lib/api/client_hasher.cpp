#include "lib/api/client_hasher.h"

#include <algorithm>
#include <span>

#include "lib/crypto/base64.h"
#include "lib/crypto/hmac.h"
#include "lib/util/big_endian.h"
#include "lib/util/time_format.h"

namespace placard::api {

namespace {
constexpr std::int64_t kDay = 86400;

std::string_view bytes(const std::array<unsigned char, 32>& a) {
  return {reinterpret_cast<const char*>(a.data()), a.size()};
}
}  // namespace

ClientHasher::ClientHasher(const http::TrustedProxies& proxies, std::string secret)
    : proxies_(proxies), secret_(std::move(secret)) {}

std::array<unsigned char, 32> ClientHasher::day_key(std::int64_t now) {
  const std::int64_t day = now >= 0 ? now / kDay : (now - kDay + 1) / kDay;
  if (day != day_) {
    day_key_ =
        crypto::hmac_sha256(secret_, "placard client day key\n" + util::format_date(day * kDay));
    day_ring_.emplace(
        tokens::KeyRing::parse("d:" + crypto::base64url_encode(bytes(day_key_)), "d"));
    day_ = day;
  }
  return day_key_;
}

db::ClientHash ClientHasher::hash_address(std::string_view address, std::int64_t now) {
  day_key(now);
  const auto mac = day_ring_->mac("d", http::client_key_text(address), macs_);
  db::ClientHash out{};
  // Days since 1970: below 2^16 until 2149.
  util::store_big_endian(std::span(out).first(2), static_cast<std::uint16_t>(day_));
  std::copy_n(mac.begin(), out.size() - 2, out.begin() + 2);
  return out;
}

db::ClientHash ClientHasher::hash(const http::Request& request, std::int64_t now) {
  return hash_address(http::client_address(request, proxies_), now);
}

}  // namespace placard::api
