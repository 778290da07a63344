// The one YAML document of an input file. yaml-cpp's YAML::Load reads the
// first document and drops the rest of the text, so a stray `---`, `...` or
// directive would silently cut a file short, and text the parser cannot
// start a node with (a line beginning with ',') loads as an empty document.
// Both are refused here as YAML::ParserException with the line, which the
// loaders already report with their file name.
#pragma once

#include <istream>

#include <yaml-cpp/yaml.h>

namespace wormcast::topo {

// Reads `in` to its end.
YAML::Node load_one_yaml_document(std::istream& in);

}  // namespace wormcast::topo
