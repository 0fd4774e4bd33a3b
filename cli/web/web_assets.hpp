// web_assets.hpp — the files of cli/web/page/ (the page of `houserules serve`), embedded in the binary at build time by
// cli/web/embed_web.cmake (the generated web_assets.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hr {

struct WebAsset {
  std::string path;   ///< "/index.html", "/app.js"...
  const char* data;   ///< the file's bytes (size of them)
  std::size_t size;
  const char* mime;   ///< Content-Type
};

/// Every embedded file, sorted by path.
const std::vector<WebAsset>& web_assets();

}  // namespace hr
