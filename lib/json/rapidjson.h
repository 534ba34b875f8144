#pragma once
// The only way this project includes RapidJSON: its assertions throw instead of aborting,
// and std::string support is on. Include this header, never <rapidjson/...> directly.
#include <stdexcept>

#ifndef RAPIDJSON_ASSERT
#define RAPIDJSON_ASSERT(x) \
  ((x) ? static_cast<void>(0) : throw std::logic_error("rapidjson assertion: " #x))
#endif
#define RAPIDJSON_HAS_STDSTRING 1
#define RAPIDJSON_NOEXCEPT_ASSERT(x)

#include <rapidjson/document.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
