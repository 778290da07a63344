// A registry of plug-ins by name: network kinds, node models, decoders, NI
// firmware, workloads. Selecting a plug-in is a name in the experiment file;
// adding one is a new source file plus one registration line in the list of
// built-ins next to its registry (explicit calls rather than static
// self-registration, which a static library would silently drop). Programs
// that embed wormcast may add their own plug-ins at start-up, before any
// experiment is loaded.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace wormcast {

template <class Product, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(Args...)>;
  struct Entry {
    std::string name;
    std::string description;
    Factory make;
  };

  // `what` names the kind of plug-in in messages ("NI firmware").
  explicit Registry(std::string what) : what_(std::move(what)) {}

  void add(std::string name, std::string description, Factory make) {
    if (find(name)) throw std::logic_error(what_ + " '" + name + "' registered twice");
    entries_.push_back(Entry{std::move(name), std::move(description), std::move(make)});
  }
  const Entry* find(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  // Throws std::invalid_argument naming the known plug-ins.
  std::unique_ptr<Product> make(const std::string& name, Args... args) const {
    const Entry* e = find(name);
    if (!e) throw std::invalid_argument("unknown " + what_ + " '" + name + "' (known: " + joined_names() + ")");
    return e->make(std::forward<Args>(args)...);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.name);
    return out;
  }
  const std::vector<Entry>& entries() const { return entries_; }
  const std::string& what() const { return what_; }
  std::string joined_names() const {
    std::string s;
    for (const auto& e : entries_) s += (s.empty() ? "" : ", ") + e.name;
    return s;
  }

 private:
  std::string what_;
  std::vector<Entry> entries_;
};

}  // namespace wormcast
