// `wormcast topo show/export` for InfiniBand fat trees named by a spec
// ("ibft:8,3"; seed003 §2, topologies/fat_tree.h): a text summary (levels,
// switch and node counts, each level's switches with what their ports lead
// to) and a Graphviz DOT drawing with the switches in rows by level and the
// nodes below the leaf switches. Plain C++.
#pragma once

#include <ostream>
#include <string>

#include "topologies/fat_tree.h"

namespace wormcast::topo {

// True for "ibft:..." (the spec may still be malformed: parse_fat_tree_spec says why).
bool is_fat_tree_spec(const std::string& spec);
// "ibft:M,N" -> FatTree; throws TopologyError quoting the spec and the expected form or the reason.
FatTree parse_fat_tree_spec(const std::string& spec);

// Levels, counts, and per switch its down and up neighbours ("SW<00,2>: down P(000) P(001), up SW<00,1>
// SW<10,1>"); trees above 64 switches list the first switch of each level only.
void show_fat_tree(const FatTree& t, std::ostream& os);
// An undirected graph: one node per switch ("SW<20,1>") and processing node ("P(201)"), one edge per
// link labelled with its two port numbers; rank=same rows per level.
void write_fat_tree_dot(const FatTree& t, std::ostream& os);

}  // namespace wormcast::topo
