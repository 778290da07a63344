// `wormcast plan` as a user meets it (real binary): the JSON contract of
// docs/plan.md for every scheme, the papers' step counts, exactly-once coverage
// on a generated irregular network, and bad input that exits 1 with
// "wormcast: error: ..." naming the option.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "../common/shell.h"

namespace fs = std::filesystem;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {
using Out = wormcast::test::CommandOutput;

Out run(const std::string& args, bool merge_stderr = true) {
  return wormcast::test::shell(wormcast::test::wormcast_bin() + " " + args, merge_stderr);
}

// stdout only, parsed: json::parse rejects anything after the one object.
json plan_json(const std::string& args) {
  const Out o = run("plan " + args + " --json", false);
  INFO("plan " << args << "\n" << o.text);
  REQUIRE(o.code == 0);
  return json::parse(o.text);
}

void check_contract(const json& j) {
  for (const char* key : {"scheme", "topology", "source", "destinations", "steps", "messages"}) {
    INFO(key);
    CHECK(j.contains(key));
  }
  for (const json& m : j.at("messages"))
    for (const char* key : {"sender", "step", "destinations", "path"}) {
      INFO(key);
      CHECK(m.contains(key));
    }
}

void check_exactly_once(const json& j) {
  std::map<json, int> got;
  for (const json& m : j.at("messages"))
    for (const json& d : m.at("destinations")) ++got[d];
  CHECK(got.size() == j.at("destinations").size());
  for (const json& d : j.at("destinations")) CHECK(got[d] == 1);
}

const char* kNet = "--topology irregular:8x8p32s1 --source 4 --random 10 --seed 3";
}  // namespace

TEST_CASE("plan: golden step counts of seed002 via the CLI", "[plan]") {
  CHECK(plan_json("binomial --set-size 4 --packets 3").at("steps") == 6);   // Fig. 5
  CHECK(plan_json("linear --set-size 4 --packets 3").at("steps") == 5);     // Fig. 5
  CHECK(plan_json("binomial --set-size 8 --packets 3").at("steps") == 9);
  const json k = plan_json("kbinomial --set-size 16 --packets 1 --k 3");   // Fig. 9
  CHECK(k.at("steps") == 5);
  CHECK(k.at("sends_per_step") == json{1, 2, 4, 7, 1});
  CHECK(k.at("k") == 3);
  CHECK(k.at("set_size") == 16);
  CHECK(k.at("packets") == 1);
  CHECK(k.at("messages").size() == 15);
  check_contract(k);
}

TEST_CASE("plan: every scheme prints the contract, path, ssr, tree deliver each destination once", "[plan]") {
  for (const char* scheme : {"kbinomial", "binomial", "linear", "path-lg", "path-greedy", "ssr", "tree"}) {
    INFO(scheme);
    const json j = plan_json(std::string(scheme) + " " + kNet);
    check_contract(j);
    check_exactly_once(j);
    CHECK(j.at("scheme") == scheme);
    CHECK(j.at("topology") == "irregular:8x8p32s1");
    CHECK(j.at("source") == 4);
    CHECK(j.at("destinations").size() == 10);
    for (const json& d : j.at("destinations")) CHECK(d != 4);
    CHECK(j.at("steps").get<int>() >= 1);
  }
  const json s = plan_json(std::string("ssr ") + kNet);
  for (const json& m : s.at("messages")) {
    CHECK(m.at("header_bits") == 12);
    CHECK(m.at("path").at(0).get<std::string>().rfind("sw", 0) == 0);
  }
  const json t = plan_json(std::string("tree ") + kNet);
  CHECK(t.at("header_bits") == 33);
  CHECK(t.contains("branches"));
  CHECK(plan_json(std::string("kbinomial ") + kNet).at("chain").size() == 11);
}

TEST_CASE("plan: --switches ... is the same network as its irregular spec, files and direct specs", "[plan]") {
  CHECK(plan_json("ssr --switches 8 --ports 8 --nodes 32 --topo-seed 1 --random 10 --seed 3 --source 4") ==
        plan_json(std::string("ssr ") + kNet));
  const auto dir = fs::temp_directory_path() / "wormcast_test_plan";
  fs::create_directories(dir);
  const std::string file = (dir / "net.yaml").string();
  REQUIRE(run("topo generate --switches 8 --ports 8 --nodes 32 --seed 1 -o " + file).code == 0);
  const json f = plan_json("path-lg --topology " + file + " --source 4 --random 10 --seed 3");
  CHECK(f.at("topology") == file);
  CHECK(f.at("messages") == plan_json(std::string("path-lg ") + kNet).at("messages"));

  const json d = plan_json("binomial --topology torus:6x6:uni --source '(0,0)' --dests '(1,2),(5,5),(0,3)'");
  CHECK(d.at("source") == "(0,0)");
  CHECK(d.at("destinations") == json{"(1,2)", "(5,5)", "(0,3)"});
  // Tori and meshes also take node numbers: (a, b) = 6a + b on 6x6.
  CHECK(plan_json("binomial --topology torus:6x6:uni --source 0 --dests 8,35,3") == d);
  const Out far = run("plan binomial --topology torus:6x6:uni --dests 36");
  CHECK(far.code != 0);
  CHECK_THAT(far.text, Contains("--dests") && Contains("\"36\"") && Contains("nodes 0..35"));
  // On a hypercube digits are the bit-string name, never a number.
  CHECK(run("plan linear --topology hypercube:4 --dests 3").code != 0);
  CHECK(plan_json("linear --topology hypercube:4 --dests 0011,1111").at("source") == "0000");
}

TEST_CASE("plan: text output and --list", "[plan]") {
  Out o = run("plan binomial --set-size 4 --packets 3");
  CHECK(o.code == 0);
  CHECK_THAT(o.text, Contains("scheme binomial") && Contains("steps: 6") && Contains("k: 2"));
  o = run(std::string("plan kbinomial ") + kNet);
  CHECK(o.code == 0);
  CHECK_THAT(o.text, Contains("ordering: cco-approx") && Contains("chain: 4 "));
  o = run("plan --list");
  CHECK(o.code == 0);
  for (const char* s : {"kbinomial", "binomial", "linear", "path-lg", "path-greedy", "ssr", "tree", "ucube", "maxport",
                        "combine", "wsort", "utorus", "storus", "mdtorus", "mutorus"})
    CHECK_THAT(o.text, Contains(std::string(s) + ":"));
}

TEST_CASE("plan: seed001 schemes via the CLI, node names as the thesis writes them", "[plan][seed001]") {
  // Fig. 3.9: W-sort reaches {1,3,5,7,11,12,14,15} of a 4-cube from 0 in 2 all-port steps.
  const json w = plan_json("wsort --topology hypercube:4 --dests 0001,0011,0101,0111,1011,1100,1110,1111");
  check_contract(w);
  check_exactly_once(w);
  CHECK(w.at("steps") == 2);
  CHECK(w.at("source") == "0000");
  CHECK(w.at("messages").at(0).at("path").at(0) == "0000");
  CHECK(w.at("messages").at(0).contains("dimension"));
  // Fig. 5.7: S-torus is one worm along the H-cycle from (3,2).
  const json s = plan_json("storus --topology torus:6x6:uni --source '(3,2)' "
                           "--dests '(0,5),(4,5),(3,4),(5,4),(4,3),(1,2),(2,1),(5,1),(1,0)'");
  check_contract(s);
  CHECK(s.at("steps") == 1);
  CHECK(s.at("messages").at(0).at("destinations") ==
        json{"(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"});
  for (const char* scheme : {"utorus", "mdtorus", "mutorus --r 8"}) {
    INFO(scheme);
    const json j = plan_json(std::string(scheme) + " --topology torus:8x8:uni --random 40 --seed 2");
    check_contract(j);
    check_exactly_once(j);
  }
  const Out t = run("plan mutorus --r 2 --topology torus:4x4:uni --dests '(1,1),(2,2),(3,3)'");
  CHECK(t.code == 0);
  CHECK_THAT(t.text, Contains("scheme mutorus") && Contains("steps: 2") && Contains("cycle: (0,0)"));
}

TEST_CASE("plan: seed004 schemes via the CLI", "[plan][seed004]") {
  // Fig. 1 of seed004: root (2,2), 1-based (row, col), is the network's (1,1).
  const std::string fig1 = " --topology torus:4x4:uni --source '(1,1)' "
                           "--dests '(0,0),(0,1),(0,2),(1,3),(2,0),(2,2),(3,0),(3,1),(3,3)'";
  const json u = plan_json("sci-utorus" + fig1);
  check_contract(u);
  check_exactly_once(u);
  CHECK(u.at("steps") == 4);
  CHECK(u.at("messages").at(0).at("destinations") == json{"(3,1)"});
  const json m = plan_json("sci-mutorus" + fig1);
  check_contract(m);
  CHECK(m.at("phases") == 2);
  CHECK(m.at("messages").at(0).at("field") == json{"(3,3)", "(3,0)", "(3,1)", "(0,2)"});
  for (const char* scheme : {"sci-separate", "sci-storus", "sci-mdtorus"}) {
    INFO(scheme);
    const json j = plan_json(std::string(scheme) + " --topology torus:4x4:uni --random 12 --seed 3");
    check_contract(j);
    check_exactly_once(j);
  }
  const Out t = run("plan sci-storus --topology mesh:4x4 --dests '(1,1)'");
  CHECK(t.code == 1);
  CHECK_THAT(t.text, Contains("needs a torus"));
}

TEST_CASE("plan: seed003 fat-tree schemes via the CLI", "[plan][seed003]") {
  // IBFT(8,3), the paper's network: 128 nodes; 13 random destinations (10 %).
  for (const char* scheme : {"ib-cyclic", "ib-opensm", "ib-unicast"}) {
    INFO(scheme);
    const json j = plan_json(std::string(scheme) + " --topology ibft:8,3 --source 'P(012)' --random 13 --seed 4");
    check_contract(j);
    check_exactly_once(j);
    CHECK(j.at("source") == "P(012)");
    CHECK(j.at("link_traversals").get<int>() > 13);
  }
  const Out t = run("plan ib-cyclic --topology ibft:4,3 --source 'P(000)' --dests 'P(200),P(201)'");
  CHECK(t.code == 0);
  CHECK_THAT(t.text, Contains("via SW<00,2> SW<00,1> SW<00,0> SW<20,1> SW<20,2>") && Contains("\"SW<20,2>\":[1,2]"));
  const Out bad = run("plan ib-cyclic --topology ibft:4,3 --dests 'P(900)'");
  CHECK(bad.code == 1);
  CHECK_THAT(bad.text, Contains("--dests") && Contains("P(900)"));
}

TEST_CASE("plan: bad input exits 1 with an error naming the option", "[plan]") {
  struct Case { std::string args; std::vector<std::string> expect; };
  const std::string net = "--topology irregular:8x8p32s1 ";
  const Case cases[] = {
      {"nosuch --set-size 4", {"unknown scheme 'nosuch'", "kbinomial", "path-lg", "ssr", "tree", "wsort", "mutorus"}},
      {"wsort --topology torus:4x4:uni --dests '(1,1)'", {"scheme 'wsort' needs a hypercube", "torus:4x4:uni"}},
      {"storus --topology torus:4x4:bi --dests '(1,1)'", {"regular unidirectional torus", "torus:4x4:bi"}},
      {"mutorus --topology torus:4x4:uni --dests '(1,1)'", {"needs --r"}},
      {"mutorus --topology torus:4x4:uni --dests '(1,1)' --r 1", {"--r must be at least 2"}},
      {"mutorus --topology torus:4x4:uni --dests '(1,1)' --r x", {"--r: 'x' is not a whole number"}},
      {"ucube --topology hypercube:3 --dests 111 --port-model some", {"--port-model: 'some' is not one of all, one"}},
      {"utorus --topology torus:4x4:uni --dests '(1,1)' --r 2", {"--r does not apply to scheme 'utorus'"}},
      {"ssr " + net + "--dests 3,40", {"--dests", "40", "not a node"}},
      {"ssr " + net + "--dests 3,5,3", {"--dests", "3", "listed twice"}},
      {"tree " + net + "--source 5 --dests 3,5", {"--dests", "5", "is the source"}},
      {"path-lg " + net + "--dests ''", {"--dests", "empty"}},
      {"path-lg " + net, {"--dests", "empty"}},
      {"ssr " + net + "--random 0", {"--random", "empty"}},
      {"ssr " + net + "--source 99 --dests 1", {"--source", "99"}},
      {"kbinomial --set-size 16 --k 0", {"--k must be at least 1"}},
      {"kbinomial --set-size 16 --packets 0", {"--packets must be at least 1"}},
      {"kbinomial --set-size 16 --k abc", {"--k: 'abc' is not a whole number"}},
      {"ssr " + net + "--random 3 --seed -2", {"--seed: '-2' is not a whole number"}},
      {"binomial --set-size 1", {"--set-size must be at least 2"}},
      {"linear", {"--set-size is required"}},
      {"binomial --set-size 4 --k 2", {"--k does not apply to scheme 'binomial'"}},
      {"ssr --topology torus:6x6:uni --dests '(1,1)'", {"needs an irregular switch network", "torus:6x6:uni"}},
      {"ssr --set-size 4", {"--set-size does not apply to scheme 'ssr'"}},
      {"binomial --set-size 4 --dests 1,2", {"--dests", "needs --topology"}},
      {"ssr " + net + "--dests 1 --random 3", {"--dests and --random"}},
      {"ssr --topology irregular:8p32 --dests 1", {"expected irregular:SxPpN"}},
      {"ssr --topology /nonexistent.yaml --dests 1", {"/nonexistent.yaml"}},
      {"ssr " + net + "--switches 4 --dests 1", {"--topology cannot be combined with --switches"}},
  };
  for (const auto& c : cases) {
    const Out o = run("plan " + c.args);
    INFO("plan " << c.args << "\n" << o.text);
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Contains("wormcast: error: "));
    for (const auto& e : c.expect) CHECK_THAT(o.text, Contains(e));
  }
  // Errors go to stderr only: nothing on stdout to confuse a JSON reader.
  CHECK(run("plan nosuch --json", false).text.empty());
}
