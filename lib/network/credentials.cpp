#include "lib/network/credentials.h"

#include "lib/json/safe_parse.h"
#include "lib/network/normalize.h"

namespace placard::network {

namespace {

rapidjson::Document open_json(const crypto::CredentialKeys& keys, const StoredCredentials& stored,
                              const char* network, const char* label) {
  crypto::SecretString plain;
  try {
    plain = crypto::SecretString::adopt(
        keys.open({stored.key_id, stored.iv, stored.ciphertext, stored.tag}, network));
  } catch (const crypto::DecryptError&) {
    throw NetworkError(std::string("The stored ") + label +
                       " credentials cannot be decrypted (was credentials.key changed?)");
  }
  rapidjson::Document doc;
  if (!json::parse_untrusted(plain.view(), doc) || !doc.IsObject()) {
    throw NetworkError(std::string("The stored ") + label + " credentials are unreadable");
  }
  return doc;
}

crypto::SecretString secret(const rapidjson::Value& doc, const char* name) {
  const auto* v = member(doc, name);
  if (v == nullptr || !v->IsString()) return {};
  return crypto::SecretString(std::string_view(v->GetString(), v->GetStringLength()));
}

// The parsed document's copies of the values, overwritten once they were taken.
void wipe_values(rapidjson::Document& doc) {
  for (auto& m : doc.GetObject()) {
    if (m.value.IsString()) {
      crypto::wipe(
          const_cast<char*>(m.value.GetString()),  // NOLINT(cppcoreguidelines-pro-type-const-cast)
          m.value.GetStringLength());
    }
  }
}

void require(bool ok, const char* label) {
  if (!ok) throw NetworkError(std::string("The stored ") + label + " credentials are incomplete");
}

}  // namespace

AdmitadCredentials open_admitad_credentials(const crypto::CredentialKeys& keys,
                                            const StoredCredentials& stored) {
  auto doc = open_json(keys, stored, "admitad", "Admitad");
  AdmitadCredentials c{str(doc, "clientId"), secret(doc, "clientSecret"), str(doc, "websiteId")};
  wipe_values(doc);
  require(!c.client_id.empty() && !c.client_secret.empty() && !c.website_id.empty(), "Admitad");
  return c;
}

AwinCredentials open_awin_credentials(const crypto::CredentialKeys& keys,
                                      const StoredCredentials& stored) {
  auto doc = open_json(keys, stored, "awin", "Awin");
  AwinCredentials c{str(doc, "publisherId"), secret(doc, "apiToken")};
  wipe_values(doc);
  require(!c.publisher_id.empty() && !c.api_token.empty(), "Awin");
  return c;
}

}  // namespace placard::network
