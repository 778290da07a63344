#include "topologies/yaml_document.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>
#include <vector>

namespace wormcast::topo {

namespace {

// Where each document starts; nothing else is kept.
struct DocumentStarts : YAML::EventHandler {
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

YAML::Node load_one_yaml_document(std::istream& file) {
  std::ostringstream whole;   // parsed twice: documents counted, then the first loaded
  whole << file.rdbuf();
  const std::string text = whole.str();
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts d;
  // Two documents at most: on text it cannot start a node with, yaml-cpp
  // hands out the same empty document again and again.
  for (int i = 0; i < 2 && parser.HandleNextDocument(d); ++i) {
  }
  if (d.starts.size() > 1) {
    const YAML::Mark& second = d.starts[1];
    if (second.pos == d.starts[0].pos)
      throw YAML::ParserException(second, "text that starts no YAML node (e.g. a line beginning with ',')");
    throw YAML::ParserException(second, "a second YAML document starts here; the file must hold one");
  }
  return YAML::Load(text);
}

}  // namespace wormcast::topo
