#include "topologies/fat_tree.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "topologies/spec_text.h"

namespace wormcast::topo {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

using detail::split;

// Non-negative decimal that fits comfortably in an int, else -1.
int small_number(const std::string& s) {
  if (s.empty() || s.size() > 7) return -1;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stoi(s);
}

std::string without_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

// Digits written together ("201") or separated by commas ("2,0,1"); -1 marks
// a token that is not a number.
std::vector<int> read_digits(const std::string& inner) {
  std::vector<int> out;
  if (inner.find(',') != std::string::npos) {
    for (const std::string& tok : split(inner, ',')) out.push_back(small_number(trim(tok)));
  } else {
    for (char c : without_spaces(inner)) out.push_back(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : -1);
  }
  return out;
}

// The problem with a label's digits (first digit in 0..first_radix-1, the
// others in 0..h-1), or "" when they are fine.
std::string digit_problem(const std::vector<int>& digits, std::size_t count, int first_radix, int h) {
  if (digits.size() != count)
    return "has " + std::to_string(digits.size()) + " digits, expected " + std::to_string(count);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const int radix = i == 0 ? first_radix : h;
    if (digits[i] < 0 || digits[i] >= radix)
      return "digit " + std::to_string(i) + " (" + std::to_string(digits[i]) + ") is not in 0.." +
             std::to_string(radix - 1);
  }
  return "";
}

}  // namespace

FatTree::FatTree(int m, int n) : m_(m), n_(n), h_(m / 2) {
  const std::string who = "IBFT(" + std::to_string(m) + ", " + std::to_string(n) + "): ";
  if (m < 4 || m % 2 != 0)
    throw std::invalid_argument(who + "m = " + std::to_string(m) + " is not an even port count of at least 4");
  if (n < 2) throw std::invalid_argument(who + "n = " + std::to_string(n) + " is below 2 switch levels");
  long long p = 1;
  pow_h_.push_back(1);
  for (int k = 1; k <= n; ++k) {
    p *= h_;
    if (2 * p > kMaxFatTreeNodes)
      throw std::invalid_argument(who + "m = " + std::to_string(m) + ", n = " + std::to_string(n) +
                                  " gives more than " + std::to_string(kMaxFatTreeNodes) + " nodes");
    pow_h_.push_back(static_cast<int>(p));
  }
  num_nodes_ = 2 * pow_h_[n];
  num_switches_ = (2 * n - 1) * pow_h_[n - 1];
}

int FatTree::switches_at_level(int level) const {
  if (level < 0 || level >= n_)
    throw std::invalid_argument(spec() + ": switch level " + std::to_string(level) + " is not in 0.." +
                                std::to_string(n_ - 1));
  return level == 0 ? pow_h_[n_ - 1] : 2 * pow_h_[n_ - 1];
}

std::string FatTree::spec() const { return "ibft:" + std::to_string(m_) + "," + std::to_string(n_); }

void FatTree::check_node(NodeId id, const char* who) const {
  if (!valid_node(id))
    throw std::invalid_argument(std::string(who) + ": node " + std::to_string(id) + " is not in 0.." +
                                std::to_string(num_nodes_ - 1) + " (" + spec() + ")");
}

void FatTree::check_switch(int sw, const char* who) const {
  if (!valid_switch(sw))
    throw std::invalid_argument(std::string(who) + ": switch " + std::to_string(sw) + " is not in 0.." +
                                std::to_string(num_switches_ - 1) + " (" + spec() + ")");
}

std::string FatTree::digit_string(const std::vector<int>& digits) const {
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) s += (i && m_ > 10 ? "," : "") + std::to_string(digits[i]);
  return s;
}

// ---- nodes ----

int FatTree::node_digit(NodeId id, int i) const {
  return i == 0 ? id / pow_h_[n_ - 1] : (id / pow_h_[n_ - 1 - i]) % h_;
}

std::vector<int> FatTree::node_digits(NodeId id) const {
  check_node(id, "FatTree::node_digits");
  std::vector<int> p(static_cast<std::size_t>(n_));
  for (int i = 0; i < n_; ++i) p[i] = node_digit(id, i);
  return p;
}

NodeId FatTree::node_of(const std::vector<int>& digits) const {
  const std::string problem = digit_problem(digits, static_cast<std::size_t>(n_), m_, h_);
  if (!problem.empty()) throw std::invalid_argument("FatTree::node_of: node label " + problem + " (" + spec() + ")");
  NodeId id = 0;
  for (int i = 0; i < n_; ++i) id += digits[i] * pow_h_[n_ - 1 - i];
  return id;
}

std::string FatTree::node_name(NodeId id) const { return "P(" + digit_string(node_digits(id)) + ")"; }

NodeId FatTree::parse_node(const std::string& text) const {
  const std::string where = "node \"" + text + "\" in " + spec() + ": ";
  std::string inner = trim(text);
  if (!inner.empty() && (inner[0] == 'P' || inner[0] == 'p')) {
    inner = trim(inner.substr(1));
    if (inner.size() < 2 || inner.front() != '(' || inner.back() != ')')
      throw std::invalid_argument(where + "expected a label such as \"" + node_name(num_nodes_ - 1) + "\"");
    inner = inner.substr(1, inner.size() - 2);
  }
  const std::vector<int> digits = read_digits(inner);
  const std::string problem = digit_problem(digits, static_cast<std::size_t>(n_), m_, h_);
  if (!problem.empty())
    throw std::invalid_argument(where + "the label " + problem + " (e.g. \"" + node_name(num_nodes_ - 1) + "\")");
  return node_of(digits);
}

// ---- switches ----

int FatTree::switch_level(int sw) const {
  check_switch(sw, "FatTree::switch_level");
  const int top = pow_h_[n_ - 1];
  return sw < top ? 0 : 1 + (sw - top) / (2 * top);
}

FatTree::SwitchLabel FatTree::switch_label(int sw) const {
  SwitchLabel label;
  label.level = switch_level(sw);
  const int top = pow_h_[n_ - 1];
  const int value = label.level == 0 ? sw : (sw - top) % (2 * top);
  label.w.resize(static_cast<std::size_t>(n_ - 1));
  for (int i = 0; i < n_ - 1; ++i) {
    const int v = value / pow_h_[n_ - 2 - i];
    label.w[i] = i == 0 ? v : v % h_;
  }
  return label;
}

int FatTree::switch_id(const SwitchLabel& label) const {
  if (label.level < 0 || label.level >= n_)
    throw std::invalid_argument("FatTree::switch_id: level " + std::to_string(label.level) + " is not in 0.." +
                                std::to_string(n_ - 1) + " (" + spec() + ")");
  const std::string problem =
      digit_problem(label.w, static_cast<std::size_t>(n_ - 1), label.level == 0 ? h_ : m_, h_);
  if (!problem.empty())
    throw std::invalid_argument("FatTree::switch_id: w of a level-" + std::to_string(label.level) + " switch " +
                                problem + " (" + spec() + ")");
  int value = 0;
  for (int i = 0; i < n_ - 1; ++i) value += label.w[i] * pow_h_[n_ - 2 - i];
  const int top = pow_h_[n_ - 1];
  return label.level == 0 ? value : top + (label.level - 1) * 2 * top + value;
}

std::string FatTree::switch_name(int sw) const {
  const SwitchLabel label = switch_label(sw);
  return "SW<" + digit_string(label.w) + "," + std::to_string(label.level) + ">";
}

int FatTree::parse_switch(const std::string& text) const {
  const std::string where = "switch \"" + text + "\" in " + spec() + ": ";
  const std::string example = " (e.g. \"" + switch_name(num_switches_ - 1) + "\")";
  std::string t = trim(text);
  if (t.size() >= 2 && (t[0] == 'S' || t[0] == 's') && (t[1] == 'W' || t[1] == 'w')) t = trim(t.substr(2));
  if (t.size() < 2 || t.front() != '<' || t.back() != '>')
    throw std::invalid_argument(where + "expected SW<w,level>" + example);
  std::vector<std::string> tokens = split(t.substr(1, t.size() - 2), ',');
  SwitchLabel label;
  label.level = small_number(trim(tokens.back()));
  tokens.pop_back();
  if (label.level < 0 || label.level >= n_)
    throw std::invalid_argument(where + "the level is not in 0.." + std::to_string(n_ - 1) + example);
  if (static_cast<int>(tokens.size()) == n_ - 1) {   // "SW<2,0,1>" (and "SW<3,1>" when n = 2)
    for (const std::string& tok : tokens) label.w.push_back(small_number(trim(tok)));
  } else if (tokens.size() == 1) {                    // "SW<20,1>"
    label.w = read_digits(tokens[0]);
  }
  const std::string problem =
      digit_problem(label.w, static_cast<std::size_t>(n_ - 1), label.level == 0 ? h_ : m_, h_);
  if (!problem.empty()) throw std::invalid_argument(where + "w " + problem + example);
  return switch_id(label);
}

// ---- wiring ----

FatTree::PortPeer FatTree::peer(int sw, int port) const {
  check_switch(sw, "FatTree::peer");
  if (port < 1 || port > m_)
    throw std::invalid_argument("FatTree::peer: port " + std::to_string(port) + " of " + switch_name(sw) +
                                " is not in 1.." + std::to_string(m_));
  const SwitchLabel s = switch_label(sw);
  const int l = s.level;
  PortPeer out;
  if (l >= 1 && port > h_) {   // up: SW<(w without digit l-1) · (port-h-1), l-1>, on its down port w_{l-1}+1
    SwitchLabel parent{{}, l - 1};
    for (int i = 0; i < n_ - 1; ++i)
      if (i != l - 1) parent.w.push_back(s.w[i]);
    parent.w.push_back(port - h_ - 1);
    out.id = switch_id(parent);
    out.port = s.w[l - 1] + 1;
  } else if (l == n_ - 1) {    // a leaf switch's down port: P(w · (port-1))
    std::vector<int> p = s.w;
    p.push_back(port - 1);
    out.is_node = true;
    out.id = node_of(p);
    out.port = 0;
  } else {                     // down: SW<(w_0..w_{l-1}, port-1, w_l..w_{n-3}), l+1>, on its up port w_{n-2}+h+1
    SwitchLabel child{{}, l + 1};
    child.w.assign(s.w.begin(), s.w.begin() + l);
    child.w.push_back(port - 1);
    child.w.insert(child.w.end(), s.w.begin() + l, s.w.end() - 1);
    out.id = switch_id(child);
    out.port = s.w[n_ - 2] + h_ + 1;
  }
  return out;
}

int FatTree::leaf_switch(NodeId node) const {
  check_node(node, "FatTree::leaf_switch");
  const int top = pow_h_[n_ - 1];
  return top + (n_ - 2) * 2 * top + node / h_;   // w = p_0..p_{n-2}, i.e. PID without its last digit
}

int FatTree::leaf_port(NodeId node) const {
  check_node(node, "FatTree::leaf_port");
  return node % h_ + 1;
}

bool FatTree::is_up_port(int sw, int port) const {
  const int level = switch_level(sw);
  if (port < 1 || port > m_)
    throw std::invalid_argument("FatTree::is_up_port: port " + std::to_string(port) + " of " + switch_name(sw) +
                                " is not in 1.." + std::to_string(m_));
  return level >= 1 && port > h_;
}

Topology fat_tree_topology(const FatTree& t) {
  Topology topo = Topology::empty(t.num_switches(), t.m(), "IBFT(" + std::to_string(t.m()) + "," +
                                                               std::to_string(t.n()) + ") m-port n-tree");
  for (int sw = 0; sw < t.num_switches(); ++sw)
    for (int k = 1; k <= t.m(); ++k) {
      const FatTree::PortPeer p = t.peer(sw, k);
      if (p.is_node) topo.attach(p.id, sw, k - 1);
      else if (sw < p.id) topo.connect(sw, k - 1, p.id, p.port - 1);
    }
  return topo;
}

std::optional<FatTree> recognise_fat_tree(const Topology& t) {
  const int m = t.ports_per_switch;
  if (m < 4 || m % 2 != 0) return std::nullopt;
  for (int n = 2;; ++n) {
    long long h_pow = 1;   // h^(n-1)
    for (int i = 1; i < n; ++i) h_pow *= m / 2;
    const long long switches = (2LL * n - 1) * h_pow, nodes = 2 * h_pow * (m / 2);
    if (switches > t.num_switches() || nodes > t.num_nodes()) return std::nullopt;
    if (switches < t.num_switches() || nodes < t.num_nodes()) continue;
    FatTree ft(m, n);
    const Topology want = fat_tree_topology(ft);
    for (int sw = 0; sw < t.num_switches(); ++sw)
      for (int p = 0; p < m; ++p) {
        const PortPeer &a = t.peer(sw, p), &b = want.peer(sw, p);
        if (a.kind != b.kind || a.id != b.id || a.port != b.port) return std::nullopt;
      }
    return ft;
  }
}

}  // namespace wormcast::topo
