// GET /healthz under a base path: the service version, no-store, 503 when unhealthy (the schema
// version the worker needs: test_schema_version.cpp).
#include "lib/api/health.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/util/service_version.h"
#include "tests/unit/frontage_fixture.h"

namespace {

using placard::test::FrontageTest;

TEST_F(FrontageTest, Healthz) {
  auto r = handle("/offers/healthz", "/offers");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, std::string(R"({"status":"ok","version":")") +
                        placard::util::service_version() + "\"}");
  EXPECT_EQ(r.header("Cache-Control"), "no-store");
  healthy_ = false;
  r = handle("/offers/healthz", "/offers");
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("service_unavailable"), std::string::npos);
}

}  // namespace
