#include "lib/tokens/key_ring.h"

#include "lib/util/trim.h"

// The low-level SHA-256 functions are deprecated in OpenSSL 3 in favour of EVP, whose context
// copy allocates; here a state is a plain struct copied by value (see key_ring.h).
#define OPENSSL_SUPPRESS_DEPRECATED  // NOLINT(cppcoreguidelines-macro-usage)
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>

#include "lib/crypto/base64.h"

namespace placard::tokens {
namespace {

constexpr std::size_t kBlockSize = 64;  // SHA-256 block size, for HMAC
constexpr std::size_t kDigestSize = 32;

struct MdDeleter {
  void operator()(EVP_MD* md) const noexcept { EVP_MD_free(md); }
};
using MdPtr = std::unique_ptr<EVP_MD, MdDeleter>;

// Wipes key-derived bytes when it goes out of scope.
template <typename Buffer>
class Wipe {
 public:
  explicit Wipe(Buffer& buffer) : buffer_(buffer) {}
  Wipe(const Wipe&) = delete;
  Wipe& operator=(const Wipe&) = delete;
  ~Wipe() { OPENSSL_cleanse(buffer_.data(), buffer_.size()); }

 private:
  Buffer& buffer_;
};

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("token keys: " + what);
}

}  // namespace

struct detail::HashState {
  SHA256_CTX ctx{};
};

void detail::HashStateDeleter::operator()(HashState* state) const noexcept {
  OPENSSL_cleanse(state, sizeof *state);
  std::default_delete<HashState>()(state);
}

MacWorkspace::MacWorkspace() : state_(std::make_unique<detail::HashState>().release()) {}

bool KeyRing::valid_kid(std::string_view kid) noexcept {
  if (kid.empty() || kid.size() > kMaxKidLength) return false;
  return std::all_of(kid.begin(), kid.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

KeyRing KeyRing::parse(std::string_view spec, std::string_view active_kid) {
  const MdPtr md(EVP_MD_fetch(nullptr, "SHA2-256", nullptr));
  if (!md) throw std::runtime_error("token keys: SHA-256 is not available");

  // Builds a SHA-256 state that has absorbed K0 xor `pad` (one block).
  const auto keyed_state = [](const std::array<unsigned char, kBlockSize>& k0, unsigned char pad) {
    std::array<unsigned char, kBlockSize> block{};
    const Wipe wipe(block);
    std::transform(k0.begin(), k0.end(), block.begin(),
                   [pad](unsigned char b) { return static_cast<unsigned char>(b ^ pad); });
    HashStatePtr state(std::make_unique<detail::HashState>().release());
    if (SHA256_Init(&state->ctx) != 1 ||
        SHA256_Update(&state->ctx, block.data(), block.size()) != 1) {
      throw std::runtime_error("token keys: SHA-256 initialisation failed");
    }
    return state;
  };

  KeyRing ring;
  if (util::trim(spec).empty())
    fail("no keys given (expected kid:base64urlkey[,kid:base64urlkey...])");
  std::size_t index = 0;
  std::string_view rest = spec;
  while (true) {
    ++index;
    const auto comma = rest.find(',');
    const std::string_view entry = util::trim(rest.substr(0, comma));
    const std::string where = "entry " + std::to_string(index);
    if (entry.empty()) fail(where + " is empty");
    const auto colon = entry.find(':');
    if (colon == std::string_view::npos) fail(where + ": expected kid:base64urlkey");
    const std::string_view kid = entry.substr(0, colon);
    if (!valid_kid(kid)) fail(where + ": key id must be 1..16 characters of [A-Za-z0-9_-]");
    const std::string named = "key '" + std::string(kid) + "'";
    if (ring.find(kid) != nullptr) fail(named + " appears more than once");

    auto decoded = crypto::base64url_decode(entry.substr(colon + 1));
    if (!decoded) fail(named + ": key is not valid unpadded base64url");
    std::string& key = *decoded;
    const Wipe wipe_key(key);
    if (key.size() < kMinKeyBytes) {
      fail(named + ": key must be at least " + std::to_string(kMinKeyBytes) + " bytes, got " +
           std::to_string(key.size()));
    }

    // HMAC (RFC 2104): K0 is the key, hashed first when longer than a block, zero-padded.
    std::array<unsigned char, kBlockSize> k0{};
    const Wipe wipe_k0(k0);
    if (key.size() > kBlockSize) {
      unsigned int len = 0;
      if (EVP_Digest(key.data(), key.size(), k0.data(), &len, md.get(), nullptr) != 1 ||
          len != kDigestSize) {
        throw std::runtime_error("token keys: SHA-256 failed");
      }
    } else {
      std::copy(key.begin(), key.end(), k0.begin());
    }
    ring.keys_.push_back(Key{std::string(kid), keyed_state(k0, 0x36), keyed_state(k0, 0x5c)});

    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }

  if (ring.find(active_kid) == nullptr) {
    if (valid_kid(active_kid)) {
      fail("active key id '" + std::string(active_kid) + "' is not in the key list");
    }
    fail("active key id is not a valid key id (1..16 characters of [A-Za-z0-9_-])");
  }
  ring.active_kid_ = std::string(active_kid);
  return ring;
}

const KeyRing::Key* KeyRing::find(std::string_view kid) const noexcept {
  for (const auto& key : keys_) {
    if (key.kid == kid) return &key;
  }
  return nullptr;
}

bool KeyRing::has(std::string_view kid) const noexcept {
  return find(kid) != nullptr;
}

std::array<unsigned char, 32> KeyRing::mac(std::string_view kid, std::string_view data,
                                           MacWorkspace& workspace) const {
  const Key* key = find(kid);
  if (key == nullptr) throw std::out_of_range("token keys: unknown key id");

  std::array<unsigned char, kDigestSize> inner_digest{};
  std::array<unsigned char, kDigestSize> out{};
  SHA256_CTX& ctx = workspace.get().ctx;
  // Copying only reads the key's states, so shared keys need no lock.
  ctx = key->inner->ctx;
  if (SHA256_Update(&ctx, data.data(), data.size()) != 1 ||
      SHA256_Final(inner_digest.data(), &ctx) != 1) {
    throw std::runtime_error("token keys: HMAC-SHA-256 failed");
  }
  ctx = key->outer->ctx;
  if (SHA256_Update(&ctx, inner_digest.data(), inner_digest.size()) != 1 ||
      SHA256_Final(out.data(), &ctx) != 1) {
    throw std::runtime_error("token keys: HMAC-SHA-256 failed");
  }
  return out;
}

std::array<unsigned char, 32> KeyRing::mac(std::string_view kid, std::string_view data) const {
  MacWorkspace workspace;
  return mac(kid, data, workspace);
}

}  // namespace placard::tokens
