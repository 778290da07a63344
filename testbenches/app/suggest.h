// "Did you mean ...?" for a word the user typed that names nothing: the
// closest of the names that exist, by edit distance, when it is close
// enough to be a typo. SystemC-free.
#pragma once

#include <string>
#include <vector>

namespace wormcast::tb {

// Levenshtein distance (insertions, deletions, substitutions; a swap of
// two neighbouring letters counts one, as typists make it).
int edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word` if it is within a typo's reach (at most a
// third of the word's letters, at least 1, at most 3), else "". A dotted
// candidate (traffic.load) is also matched by its last part alone (load),
// so a parameter given without its section is found. Ties go to the first.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for closest_name's answer, or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace wormcast::tb
