#include "testbenches/app/suggest.h"

#include <algorithm>
#include <cctype>

namespace wormcast::tb {

int edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: the three Levenshtein operations and the
  // transposition of adjacent letters, over a full table (names are short).
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  const int reach = std::clamp(static_cast<int>(word.size()) / 3, 1, 3);
  std::string best;
  int best_d = reach + 1;
  for (const std::string& c : candidates) {
    int d = edit_distance(word, c);
    const auto dot = c.rfind('.');
    if (dot != std::string::npos && word.find('.') == std::string::npos)
      d = std::min(d, edit_distance(word, c.substr(dot + 1)));
    if (d < best_d && d > 0) {
      best = c;
      best_d = d;
    } else if (d == 0 && c != word) {   // the word is a candidate's last part exactly
      return c;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string c = closest_name(word, candidates);
  return c.empty() ? std::string() : " (did you mean '" + c + "'?)";
}

}  // namespace wormcast::tb
