#include "algorithms/compound_header.h"

#include <set>
#include <stdexcept>
#include <string>

namespace wormcast::algo {

namespace {
[[noreturn]] void bad(const std::string& why) { throw std::invalid_argument("compound header: " + why); }

// Reads the block starting at flit `at`; returns the position after it.
std::size_t read_block(const std::vector<NodeId>& f, std::size_t at, CompoundBlock& b) {
  if (at + 1 >= f.size()) bad("flit " + std::to_string(at) + ": a block needs an address and a count");
  b.dest = f[at];
  const NodeId w = f[at + 1];
  if (b.dest < 0) bad("flit " + std::to_string(at) + ": negative address " + std::to_string(b.dest));
  if (w < 0 || static_cast<std::size_t>(w) > f.size() - at - 2)
    bad("flit " + std::to_string(at + 1) + ": count " + std::to_string(w) + " runs past the end of the header (" +
        std::to_string(f.size()) + " flits)");
  b.later.assign(f.begin() + static_cast<long>(at) + 2, f.begin() + static_cast<long>(at) + 2 + w);
  return at + 2 + static_cast<std::size_t>(w);
}
}  // namespace

std::vector<NodeId> encode_compound_header(const std::vector<CompoundBlock>& blocks) {
  if (blocks.empty()) bad("no destinations");
  std::vector<NodeId> f;
  std::set<NodeId> seen;
  for (const CompoundBlock& b : blocks) {
    if (b.dest < 0) bad("negative destination " + std::to_string(b.dest));
    if (!seen.insert(b.dest).second) bad("destination " + std::to_string(b.dest) + " has two blocks");
    f.push_back(b.dest);
    f.push_back(static_cast<NodeId>(b.later.size()));
    f.insert(f.end(), b.later.begin(), b.later.end());
  }
  f.push_back(blocks.back().dest);   // terminator
  return f;
}

int compound_header_flits(const std::vector<CompoundBlock>& blocks) {
  int n = 1;
  for (const CompoundBlock& b : blocks) n += 2 + static_cast<int>(b.later.size());
  return n;
}

std::vector<CompoundBlock> decode_compound_header(const std::vector<NodeId>& flits) {
  std::vector<CompoundBlock> out;
  std::size_t at = 0;
  while (true) {
    CompoundBlock b;
    at = read_block(flits, at, b);
    out.push_back(std::move(b));
    if (at >= flits.size()) bad("no terminator after the block of " + std::to_string(out.back().dest));
    if (flits[at] == out.back().dest) {
      if (at + 1 != flits.size())
        bad("flit " + std::to_string(at + 1) + ": " + std::to_string(flits.size() - at - 1) +
            " flits after the terminator");
      return out;
    }
  }
}

int compound_first_block_flits(const std::vector<NodeId>& flits) {
  CompoundBlock b;
  return static_cast<int>(read_block(flits, 0, b));
}

CompoundBlock received_compound_block(const std::vector<NodeId>& flits) {
  CompoundBlock b;
  const std::size_t end = read_block(flits, 0, b);
  if (end != flits.size() && !(end + 1 == flits.size() && flits[end] == b.dest))
    bad("a received block of " + std::to_string(b.dest) + " has " + std::to_string(flits.size() - end) +
        " extra flits");
  return b;
}

}  // namespace wormcast::algo
